package io.github.mongoredact.demo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.github.mongoredact.internal.bson.DriverApi;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the demo end to end against the embedded server, in this JVM through {@link Demo#run(String[], PrintStream)} and as
 * its own program through {@link Demo#main(String[])}, and reads what it printed.
 */
class DemoTest {
    /** The start of an slf4j-simple line: optional thread, level, logger name. */
    private static final Pattern LOG_LINE = Pattern.compile("^(\\[[^\\]]*\\] )?(TRACE|DEBUG|INFO|WARN|ERROR) (\\S+) - ");
    private static final Pattern CARD_NUMBER = Pattern.compile("4929-\\d{4}-\\d{4}-\\d{4}");
    private static final Pattern EMAIL = Pattern.compile("[a-z]+\\.[a-z]+\\.\\d+@example\\.com");
    /** The demo's output with no option, made once: see {@link #defaultProgram()}. */
    private static Program defaultRun;

    @Test
    void printsRedactedLogLinesMetricsAndSummaryAndNoPlantedValue() {
        Run run = runInThisJvm();

        assertEquals(0, run.exitCode, run.out);
        assertMetricsAndSummary(run.out);
        assertTrue(run.out.contains("insertOne failed as expected: MongoWriteException code 11000"), run.out);
        assertTrue(run.out.contains("findOneAndUpdate failed as expected: MongoCommandException code 11000"), run.out);
        assertTrue(run.out.contains("Spans (OpenTelemetryCommandSink, ") && run.out.contains("demo workload  ")
                && run.out.contains("  insert  ") && run.out.contains("{\"insert\": \"customers\""), run.out);
        String log = String.join("\n", run.demoLog);
        assertTrue(run.demoLog.size() >= 38, "demo log records: " + run.demoLog.size() + "\n" + log);
        assertTrue(log.contains("Command \"insert\" started on database \"mongo_redact_demo\""), log);
        assertTrue(log.contains("\"filter\": {\"email\": \"?string\"}"), log);
        assertTrue(log.contains("Command \"findAndModify\" failed"), log);
        assertTrue(log.contains("dup key: { email: ? }"), log);
        assertTrue(log.contains("Command \"saslStart\" started on database \"admin\""), log);
        assertNoPlantedValue(run.out);
        assertNoPlantedValue(log);
    }

    @Test
    void withPolicyNoneTheSameRunLogsTheValuesButNotTheSecretsOfAuthenticationCommands() {
        Run run = runInThisJvm("--policy", "none");

        assertEquals(0, run.exitCode, run.out);
        assertMetricsAndSummary(run.out);
        String log = String.join("\n", run.demoLog);
        assertTrue(log.contains(Workload.email(7)), "the e-mail of a find's filter, verbatim under 'none'");
        assertTrue(log.contains(Workload.cardNumber(999)), "a card number of the inserted documents, verbatim under 'none'");
        assertTrue(log.contains("dup key: { email: \"" + Workload.email(9) + "\" }"), "the duplicate key message, verbatim");
        assertFalse(log.contains(Workload.PASSWORD), "createUser is redacted by the specification");
        assertSaslPayloadAbsent(log);
        assertNoPlantedValue(run.out);
    }

    @Test
    void runsAgainstTheDeploymentOfUriAndDropsItsDatabase() {
        MongoServer server = new MongoServer(new MemoryBackend());
        try {
            server.bind("127.0.0.1", 0);
            String uri = "mongodb://127.0.0.1:" + server.getLocalAddress().getPort();

            Run run = runInThisJvm("--uri", uri);

            assertEquals(0, run.exitCode, run.out);
            assertTrue(run.out.contains("against the deployment at [127.0.0.1:" + server.getLocalAddress().getPort() + "]"),
                    run.out);
            assertMetricsAndSummary(run.out);
            assertNoPlantedValue(run.out);
            assertNoPlantedValue(String.join("\n", run.demoLog));
            try (MongoClient client = MongoClients.create(uri)) {
                assertFalse(client.listDatabaseNames().into(new ArrayList<>()).contains(Workload.DATABASE));
            }
        } finally {
            server.shutdownNow();
        }
    }

    @Test
    void aDeploymentThatCanNotBeReachedEndsTheRunWithExitCode1() {
        Run run = runInThisJvm("--uri", "mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=300&connectTimeoutMS=300");

        assertEquals(1, run.exitCode, run.out);
        assertTrue(run.out.contains("mongo-redact demo failed: com.mongodb.MongoTimeoutException"), run.out);
        assertFalse(run.out.contains("Metrics ("), run.out);
    }

    @Test
    void mainExitsAfterTheRunAndItsWholeOutputHoldsNoPlantedValue() throws Exception {
        Program program = defaultProgram();

        assertEquals(0, program.exitCode, program.output);
        assertMetricsAndSummary(program.output);
        assertTrue(program.output.contains("DEBUG " + Demo.LOGGER_NAME + " - "), program.output);
        assertTrue(program.output.contains("Command \"insert\" started on database \"mongo_redact_demo\""), program.output);
        assertNoPlantedValue(program.output);
    }

    /**
     * The demo guide's excerpt (docs/demo.md) is what the demo prints on the driver line {@code mvn -q -Pdemo} runs it on
     * (the demo profile's {@code demo.driver}), but for what changes from run to run; on other lines the driver's own
     * wording differs, and this is skipped.
     */
    @Test
    void theReadmesExcerptIsWhatTheDemoPrintsOnItsDriverLine() throws Exception {
        String pom = Files.readString(Paths.get("pom.xml"), StandardCharsets.UTF_8);
        Matcher demoDriver = Pattern.compile("<demo\\.driver>([^<]+)</demo\\.driver>").matcher(pom);
        assertTrue(demoDriver.find(), "the demo profile names its driver line");
        Assumptions.assumeTrue(DriverApi.driverVersion().equals(demoDriver.group(1)),
                "the demo runs on " + demoDriver.group(1) + ", this suite on " + DriverApi.driverVersion());
        Program program = defaultProgram();
        assertEquals(0, program.exitCode, program.output);
        String readme = DemoExcerpt.in(Files.readString(Paths.get("../docs/demo.md"), StandardCharsets.UTF_8));
        String fresh = DemoExcerpt.of(program.output);
        assertEquals(DemoExcerpt.normalize(fresh), DemoExcerpt.normalize(readme), "docs/demo.md's demo excerpt is not what"
                + " the demo prints now; regenerate it with mvn -q -Pdemo -Ddemo.main=" + DemoExcerpt.class.getName()
                + ". This run's excerpt:\n" + fresh);
    }

    /** The demo as its own program with no option, run once for the tests that read its output. */
    private static synchronized Program defaultProgram() throws IOException, InterruptedException {
        if (defaultRun == null) {
            defaultRun = runProgram();
        }
        return defaultRun;
    }

    @Test
    void mainExitsWith2OnABadOption() throws Exception {
        Program program = runProgram("--policy", "everything");

        assertEquals(2, program.exitCode, program.output);
        assertTrue(program.output.contains("--policy must be none, spec or defaults, was 'everything'"), program.output);
    }

    @Test
    void badOptionsReturn2WithAMessageThatNamesThem() {
        assertBadOption("unknown option '--colour'", "--colour");
        assertBadOption("unknown option 'extra'", "extra");
        assertBadOption("--policy must be none, spec or defaults, was 'all'", "--policy", "all");
        assertBadOption("--policy must be none, spec or defaults, was 'all'", "--policy=all");
        assertBadOption("--policy needs a value", "--policy");
        assertBadOption("--uri needs a value", "--uri", "--policy", "none");
        assertBadOption("--uri is not a MongoDB connection string", "--uri", "localhost:27017");
        assertBadOption("--help takes no value", "--help=yes");
    }

    @Test
    void helpDocumentsTheOptionsAndRunsNothing() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int exitCode = Demo.run(new String[]{"--help"}, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, exitCode);
        assertTrue(out.startsWith("Usage: mongo-redact demo [--uri mongodb://...] [--policy none|spec|defaults] [--help]"), out);
        assertTrue(out.contains("--uri URI") && out.contains("--policy NAME") && out.contains("Exit codes"), out);
        assertFalse(out.contains("Metrics"), out);
    }

    private static void assertBadOption(final String message, final String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int exitCode = Demo.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(2, exitCode, String.join(" ", args) + ": " + out);
        assertTrue(out.startsWith("mongo-redact demo: " + message), out);
        assertTrue(out.contains("Run with --help"), out);
    }

    private static void assertMetricsAndSummary(final String out) {
        assertTrue(out.contains("Metrics (Micrometer mongodb.driver.commands, per command and collection):"), out);
        assertTrue(Pattern.compile("(?m)^command\\s+collection\\s+count\\s+failures\\s+mean ms\\s+max ms\\s+command bytes"
                + "\\s+reply bytes$").matcher(out).find(), out);
        // the one insertMany and the duplicate insertOne; the duplicate counts as a failure
        assertTrue(Pattern.compile("(?m)^insert\\s+customers\\s+2\\s+1\\s+[0-9.]+\\s+[0-9.]+\\s+[1-9][0-9]{5,}\\s+\\d+$")
                .matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^findAndModify\\s+customers\\s+1\\s+1\\s").matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^getMore\\s+customers\\s+1\\s+0\\s").matcher(out).find(), out);
        Matcher summary = Pattern.compile("Summary: (\\d+) commands \\((\\d+) with errors\\).* It replaced (\\d+) values"
                + ".* the listener itself \\(copying and redacting\\) allocated (\\d+) bytes per event").matcher(out);
        assertTrue(summary.find(), out);
        assertEquals(19, Integer.parseInt(summary.group(1)), out);
        assertEquals(4, Integer.parseInt(summary.group(2)), out);
        assertTrue(Long.parseLong(summary.group(4)) > 0, out);
    }

    private static void assertNoPlantedValue(final String text) {
        assertFalse(text.contains("example.com") || text.contains("example\\.com"), () -> "an e-mail address in:\n" + text);
        assertFalse(EMAIL.matcher(text).find(), "an e-mail address");
        assertFalse(CARD_NUMBER.matcher(text).find(), () -> "a card number in:\n" + text);
        assertFalse(text.contains("Replaced-Name"), "the updated name");
        for (String name : plantedNames()) {
            assertFalse(Pattern.compile("\\b" + name + "\\b").matcher(text).find(), () -> "the name " + name + " in:\n" + text);
        }
        assertFalse(text.contains(Workload.PASSWORD), "the createUser password");
        assertSaslPayloadAbsent(text);
    }

    private static void assertSaslPayloadAbsent(final String text) {
        byte[] payload = Workload.SASL_PAYLOAD.getBytes(StandardCharsets.UTF_8);
        assertFalse(text.contains(Workload.SASL_PAYLOAD), "the saslStart payload");
        assertFalse(text.contains(Base64.getEncoder().encodeToString(payload)), "the saslStart payload in base64");
        StringBuilder hex = new StringBuilder();
        for (byte b : payload) {
            hex.append(String.format(java.util.Locale.ROOT, "%02X", b));
        }
        assertFalse(text.toUpperCase(java.util.Locale.ROOT).contains(hex.toString()), "the saslStart payload in hex");
    }

    private static Set<String> plantedNames() {
        Set<String> names = new LinkedHashSet<>();
        for (int i = 0; i < Workload.CUSTOMERS; i++) {
            names.addAll(List.of(Workload.name(i).split(" ")));
        }
        return names;
    }

    /** Runs {@link Demo#run} with standard output and error captured, to read the log lines slf4j-simple writes there. */
    private static Run runInThisJvm(final String... args) {
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
        int exitCode;
        System.setOut(log);
        System.setErr(log);
        try {
            exitCode = Demo.run(args, new PrintStream(outBytes, true, StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        return new Run(exitCode, outBytes.toString(StandardCharsets.UTF_8),
                recordsOf(logBytes.toString(StandardCharsets.UTF_8), Demo.LOGGER_NAME));
    }

    /**
     * @return the records of one logger, each with its continuation lines (a failure's stack trace), from slf4j-simple
     *         output that may hold other loggers' records too (this JVM's other tests may have made the embedded server's
     *         loggers before, at levels the demo can no longer change)
     */
    private static List<String> recordsOf(final String output, final String loggerName) {
        List<String> records = new ArrayList<>();
        StringBuilder current = null;
        for (String line : output.split("\\R")) {
            Matcher start = LOG_LINE.matcher(line);
            if (start.find()) {
                if (current != null) {
                    records.add(current.toString());
                }
                current = start.group(3).equals(loggerName) ? new StringBuilder(line) : null;
            } else if (current != null) {
                current.append('\n').append(line);
            }
        }
        if (current != null) {
            records.add(current.toString());
        }
        return records;
    }

    /** Runs {@link Demo#main} as its own program, with this JVM's class path, standard error merged into its output. */
    private static Program runProgram(final String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Demo.class.getName());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("the demo did not exit within 120 s");
        }
        return new Program(process.exitValue(), output.join());
    }

    private static String readAll(final InputStream in) {
        try (InputStream input = in) {
            return new String(input.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class Run {
        final int exitCode;
        final String out;
        final List<String> demoLog;

        Run(final int exitCode, final String out, final List<String> demoLog) {
            this.exitCode = exitCode;
            this.out = out;
            this.demoLog = demoLog;
        }
    }

    private static final class Program {
        final int exitCode;
        final String output;

        Program(final int exitCode, final String output) {
            this.exitCode = exitCode;
            this.output = output;
        }
    }
}

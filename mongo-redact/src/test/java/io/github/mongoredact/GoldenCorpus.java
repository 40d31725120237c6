package io.github.mongoredact;

import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A golden corpus: what the listener forwards for a fixed, seeded set of commands and replies, recorded once and compared with
 * every later build line by line. Each case is run in every mode a downstream can ask for, each on a listener of its own, so
 * that every way the listener reads a command is pinned:
 * <ul>
 *     <li>{@code plain}: a plain downstream listener alone (the forwarded copy);</li>
 *     <li>{@code copy}: the same plus a sink that reads documents and the fingerprint (the copy, the collection, the
 *     fingerprint, the size);</li>
 *     <li>{@code fingerprint}: a sink alone that reads the fingerprint but no documents (no copy);</li>
 *     <li>{@code metrics}: a sink alone that reads neither (the collection and the size only).</li>
 * </ul>
 * A line holds the case's name, the mode, the first 16 bytes of the SHA-256 of the forwarded document's bytes (or {@code -}),
 * the collection, the fingerprint, the size, the values redacted and the redaction failures, and the marker's text where a
 * marker went on. Replies add the reply's digest, its size and cursor id as the sink saw them.
 *
 * <p>Recording: {@code -Dgolden.record=true} writes the file under {@code src/test/resources/golden} instead of comparing
 * (run from the project's root). The file is the same on every driver line the suite runs (4.11 and 5.14).</p>
 */
public final class GoldenCorpus {
    private static final boolean RECORD = Boolean.getBoolean("golden.record");
    private static final String[] MODES = {"plain", "copy", "fingerprint", "metrics"};
    private final String name;
    private final List<String> lines = new ArrayList<>();

    /** @param name the file's name under {@code golden/}, without its ending */
    public GoldenCorpus(final String name) {
        this.name = name;
    }

    /**
     * Runs one started command in every mode.
     *
     * @param id the case's name
     * @param policy the policy
     * @param started makes the event afresh for each mode (a byte-backed command may be read once per listener)
     */
    public void started(final String id, final RedactionPolicy policy, final Supplier<CommandStartedEvent> started) {
        for (String mode : MODES) {
            Run run = new Run(policy, mode);
            run.listener.commandStarted(started.get());
            BsonDocument forwarded = run.last.started == null ? null : run.last.started.getCommand();
            StartedCommand fact = run.sink.started.isEmpty() ? null : run.sink.started.get(0);
            StringBuilder line = new StringBuilder(id).append('\t').append(mode).append('\t');
            line.append(mode.equals("plain") || mode.equals("copy") ? digest(forwarded) : "-");
            if (fact != null) {
                line.append('\t').append(fact.getCollectionName()).append('\t').append(fact.getFingerprintHex())
                        .append('\t').append(fact.getCommandSize());
                if (!mode.equals("copy")) {
                    // a sink's document is null unless it asked for it
                    line.append('\t').append(fact.getCommand() == null ? "no-copy" : "copy!");
                }
            }
            counters(line, run.listener, forwarded);
            lines.add(line.toString());
        }
    }

    /**
     * Runs one reply, after its start, in the modes that read it: a plain listener, and a sink that reads reply documents.
     */
    public void replied(final String id, final RedactionPolicy policy, final Supplier<CommandStartedEvent> started,
                        final Supplier<CommandSucceededEvent> succeeded) {
        for (String mode : new String[]{"plain", "copy", "metrics"}) {
            Run run = new Run(policy, mode);
            run.listener.commandStarted(started.get());
            run.listener.commandSucceeded(succeeded.get());
            BsonDocument forwarded = run.last.succeeded == null ? null : run.last.succeeded.getResponse();
            StringBuilder line = new StringBuilder(id).append('\t').append("reply-").append(mode).append('\t')
                    .append(mode.equals("metrics") ? "-" : digest(forwarded));
            if (!run.sink.completed.isEmpty()) {
                CompletedCommand fact = run.sink.completed.get(0);
                line.append('\t').append(fact.getReplySize()).append('\t').append(fact.getCursorId()).append('\t')
                        .append(fact.getErrorCode()).append('\t').append(fact.getErrorCodeName()).append('\t')
                        .append(fact.getReply() == null ? "-" : digest(fact.getReply()));
            }
            counters(line, run.listener, forwarded);
            lines.add(line.toString());
        }
    }

    /** Runs one failure, after its start: the throwable a plain listener and a sink are handed (class and message). */
    public void failed(final String id, final RedactionPolicy policy, final Supplier<CommandStartedEvent> started,
                       final Supplier<CommandFailedEvent> failed) {
        for (String mode : new String[]{"plain", "copy"}) {
            Run run = new Run(policy, mode);
            run.listener.commandStarted(started.get());
            run.listener.commandFailed(failed.get());
            StringBuilder line = new StringBuilder(id).append('\t').append("failure-").append(mode).append('\t')
                    .append(throwable(run.last.failed == null ? null : run.last.failed.getThrowable()));
            if (!run.sink.completed.isEmpty()) {
                CompletedCommand fact = run.sink.completed.get(0);
                line.append('\t').append(fact.getErrorCode()).append('\t').append(fact.getErrorCodeName()).append('\t')
                        .append(throwable(fact.getFailure()));
            }
            counters(line, run.listener, null);
            lines.add(line.toString());
        }
    }

    private static String throwable(@Nullable final Throwable failure) {
        if (failure == null) {
            return "null";
        }
        StringBuilder text = new StringBuilder(failure.getClass().getName()).append(": ").append(failure.getMessage());
        for (Throwable suppressed : failure.getSuppressed()) {
            text.append(" | suppressed ").append(throwable(suppressed));
        }
        if (failure.getCause() != null && failure.getCause() != failure) {
            text.append(" | cause ").append(throwable(failure.getCause()));
        }
        return text.toString().replace('\t', ' ').replace('\n', ' ');
    }

    private static void counters(final StringBuilder line, final RedactingCommandListener listener,
                                 @Nullable final BsonDocument forwarded) {
        line.append('\t').append(listener.getCounters().getValuesRedacted()).append('\t')
                .append(listener.getCounters().getRedactionFailures());
        if (forwarded != null && forwarded.containsKey("$redactionError")) {
            line.append('\t').append(forwarded.get("$redactionError").asString().getValue().replace('\t', ' ')
                    .replace('\n', ' '));
        }
    }

    /**
     * @return the driver's line ({@code 4.11}, {@code 5.14}): failure text carries the driver's own message templates, which
     *         changed between lines, so failures have a corpus per line
     */
    public static String driverLine() {
        try {
            String version = (String) Class.forName("com.mongodb.internal.build.MongoDriverVersion").getField("VERSION")
                    .get(null);
            String[] parts = version.split("\\.");
            return parts[0] + "." + parts[1];
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** Compares the lines made with the recorded file (or records them). */
    public void check(final int atLeast) throws IOException {
        assertTrue(lines.size() >= atLeast, "lines " + lines.size() + " < " + atLeast);
        String resource = "/golden/" + name + ".tsv";
        if (RECORD) {
            Path file = Paths.get("src", "test", "resources", "golden", name + ".tsv");
            Files.createDirectories(file.getParent());
            Files.write(file, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
            System.out.println("golden corpus recorded: " + file + " (" + lines.size() + " lines)");
            return;
        }
        List<String> recorded = new ArrayList<>();
        try (java.io.InputStream in = GoldenCorpus.class.getResourceAsStream(resource)) {
            if (in == null) {
                fail("no golden corpus " + resource + ": record it with -Dgolden.record=true");
            }
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isEmpty()) {
                    recorded.add(line);
                }
            }
        }
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < Math.max(recorded.size(), lines.size()); i++) {
            String expected = i < recorded.size() ? recorded.get(i) : "(none)";
            String actual = i < lines.size() ? lines.get(i) : "(none)";
            if (!expected.equals(actual)) {
                differences.add("line " + (i + 1) + "\n  recorded: " + expected + "\n  now:      " + actual);
            }
        }
        System.out.println("golden corpus " + name + ": " + lines.size() + " lines compared, " + differences.size()
                + " differ");
        assertEquals(0, differences.size(), () -> differences.size() + " lines differ from " + resource + ":\n"
                + String.join("\n", differences.subList(0, Math.min(20, differences.size()))));
    }

    private static String digest(@Nullable final BsonDocument document) {
        if (document == null) {
            return "null";
        }
        byte[] bytes;
        String prefix = "";
        if (document instanceof RawBsonDocument && RawBytes.offset((RawBsonDocument) document) == 0
                && RawBytes.array((RawBsonDocument) document).length == RawBytes.length((RawBsonDocument) document)) {
            bytes = DriverShapes.ownedBytes(document);
        } else {
            // not one exact-size array (the marker document is written by the driver's codec into a larger buffer)
            prefix = document.getClass().getSimpleName() + "-inexact:";
            bytes = DriverShapes.encode(document);
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
            StringBuilder hex = new StringBuilder(prefix + bytes.length + ":");
            for (int i = 0; i < 16; i++) {
                hex.append(Character.forDigit((hash[i] >> 4) & 0xF, 16)).append(Character.forDigit(hash[i] & 0xF, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** One listener of one mode, with what it forwarded; the sink is registered only in the modes that have one. */
    private static final class Run {
        final LastEventListener last = new LastEventListener();
        final RecordingSink sink;
        final RedactingCommandListener listener;

        Run(final RedactionPolicy policy, final String mode) {
            RedactingCommandListener.Builder builder = RedactingCommandListener.builder().policy(policy);
            sink = new RecordingSink(mode.equals("copy"), mode.equals("copy"), !mode.equals("metrics"));
            if (mode.equals("plain") || mode.equals("copy")) {
                builder.addListener(last);
            }
            if (!mode.equals("plain")) {
                builder.addSink(sink);
            }
            this.listener = builder.build();
        }
    }
}

package io.github.mongoredact.demo;

import com.mongodb.ConnectionString;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.RedactionPolicy;

/**
 * The demo's command line: {@code --uri}, {@code --policy}, {@code --help}. Immutable.
 */
final class DemoOptions {
    static final String USAGE = String.join(System.lineSeparator(),
            "Usage: mongo-redact demo [--uri mongodb://...] [--policy none|spec|defaults] [--help]",
            "",
            "Runs a customer workload through the MongoDB Java driver with the redacting command listener registered on",
            "MongoClientSettings, and prints the redacted command log, a metrics table and a summary.",
            "",
            "  --uri URI        run against this deployment instead of the embedded in-memory server; the demo uses the",
            "                   database '" + Workload.DATABASE + "' and drops it before and after the run",
            "  --policy NAME    the redaction policy:",
            "                     defaults  shapes kept, values replaced by typed placeholders (the default)",
            "                     spec      only the specification's redaction of authentication commands",
            "                     none      the same as spec: everything else verbatim",
            "  --help           print this help and exit",
            "",
            "Exit codes: 0 done, 1 the workload failed, 2 bad options.");

    @Nullable
    private final String uri;
    private final String policyName;
    private final boolean help;

    private DemoOptions(@Nullable final String uri, final String policyName, final boolean help) {
        this.uri = uri;
        this.policyName = policyName;
        this.help = help;
    }

    /**
     * @param args the command line
     * @return the options
     * @throws BadOptionException with a message that names the bad option
     */
    static DemoOptions parse(final String... args) {
        String uri = null;
        String policyName = "defaults";
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String value = null;
            int equals = arg.indexOf('=');
            if (arg.startsWith("--") && equals > 0) {
                name = arg.substring(0, equals);
                value = arg.substring(equals + 1);
            }
            switch (name) {
                case "--help":
                case "-h":
                    if (value != null) {
                        throw new BadOptionException(name + " takes no value");
                    }
                    help = true;
                    break;
                case "--uri":
                    if (value == null) {
                        value = valueOf(args, ++i, name);
                    }
                    uri = checkUri(value);
                    break;
                case "--policy":
                    if (value == null) {
                        value = valueOf(args, ++i, name);
                    }
                    policyName = checkPolicy(value);
                    break;
                default:
                    throw new BadOptionException("unknown option '" + arg + "'");
            }
        }
        return new DemoOptions(uri, policyName, help);
    }

    private static String valueOf(final String[] args, final int index, final String name) {
        if (index >= args.length || args[index].startsWith("--")) {
            throw new BadOptionException(name + " needs a value");
        }
        return args[index];
    }

    private static String checkUri(final String uri) {
        try {
            new ConnectionString(uri);
        } catch (IllegalArgumentException e) {
            throw new BadOptionException("--uri is not a MongoDB connection string: " + e.getMessage());
        }
        return uri;
    }

    private static String checkPolicy(final String name) {
        switch (name) {
            case "none":
            case "spec":
            case "defaults":
                return name;
            default:
                throw new BadOptionException("--policy must be none, spec or defaults, was '" + name + "'");
        }
    }

    /**
     * @return the connection string, or null for the embedded server
     */
    @Nullable
    String uri() {
        return uri;
    }

    String policyName() {
        return policyName;
    }

    RedactionPolicy policy() {
        switch (policyName) {
            case "none":
                return RedactionPolicy.specOnly();
            case "spec":
                return RedactionPolicy.specOnly();
            default:
                return RedactionPolicy.defaults();
        }
    }

    boolean help() {
        return help;
    }

    /** A command line the demo does not accept. */
    static final class BadOptionException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        BadOptionException(final String message) {
            super(message);
        }
    }
}

package io.github.mongoredact.internal.rules;

import org.bson.BsonDocument;
import org.bson.RawBsonDocument;

/**
 * The command logging and monitoring spec's redaction of sensitive commands, enforced whatever the driver did before.
 *
 * <p>Names are matched ignoring case ({@code SASLSTART}, {@code Authenticate}, {@code CreateUser}...), beyond the spec and
 * the driver, which match exactly: defence in depth, so that a password sent by {@code runCommand} under a name in another
 * case is not forwarded verbatim. The same holds for {@code hello}, {@code isMaster}, {@code ismaster} with
 * {@code speculativeAuthenticate}. The comparison allocates nothing (it runs for every command). Stateless and thread-safe.
 */
public final class SpecRedaction {
    /** The empty document that replaces a sensitive command or reply: shared, immutable, allocated once. */
    public static final RawBsonDocument EMPTY = new RawBsonDocument(new byte[]{5, 0, 0, 0, 0});
    private static final String SPECULATIVE_AUTHENTICATE = "speculativeAuthenticate";
    /** Compared ignoring case, without allocating: this runs for every command. */
    private static final String[] SENSITIVE = {"authenticate", "saslStart", "saslContinue", "getnonce", "createUser",
            "updateUser", "copydbgetnonce", "copydbsaslstart", "copydb"};
    /**
     * The sensitive names by their length, so that a name is compared only with those of its own length: most command names
     * have none (find, insert, aggregate...), the others one or two.
     */
    private static final String[][] SENSITIVE_BY_LENGTH = byLength(SENSITIVE);

    private SpecRedaction() {
    }

    private static String[][] byLength(final String[] names) {
        int longest = 0;
        for (String name : names) {
            longest = Math.max(longest, name.length());
        }
        String[][] byLength = new String[longest + 1][0];
        for (String name : names) {
            String[] same = java.util.Arrays.copyOf(byLength[name.length()], byLength[name.length()].length + 1);
            same[same.length - 1] = name;
            byLength[name.length()] = same;
        }
        return byLength;
    }

    public static boolean isHello(final String commandName) {
        int length = commandName.length();
        return length == 5 && commandName.equalsIgnoreCase("hello") || length == 8 && commandName.equalsIgnoreCase("isMaster");
    }

    /** @return whether the name is one of the spec's sensitive commands, ignoring case */
    public static boolean isSensitiveName(final String commandName) {
        int length = commandName.length();
        if (length >= SENSITIVE_BY_LENGTH.length) {
            return false;
        }
        String[] candidates = SENSITIVE_BY_LENGTH[length];
        if (candidates.length == 0) {
            return false;
        }
        // the first letter, either case, before the whole name: insert and copydb part there
        int first = commandName.charAt(0) | 0x20;
        for (String name : candidates) {
            if (first == (name.charAt(0) | 0x20) && name.equalsIgnoreCase(commandName)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether the command is sensitive: by name, or a hello holding {@code speculativeAuthenticate} */
    public static boolean isSensitiveCommand(final String commandName, final BsonDocument command) {
        return isSensitiveName(commandName) || (isHello(commandName) && containsSpeculativeAuthenticate(command));
    }

    /**
     * @param startSensitive whether the started command is known to have been sensitive
     * @return whether the reply must be redacted
     */
    public static boolean isSensitiveReply(final String commandName, final BsonDocument reply, final boolean startSensitive) {
        if (isSensitiveName(commandName)) {
            return true;
        }
        if (!isHello(commandName)) {
            return false;
        }
        return startSensitive || containsSpeculativeAuthenticate(reply);
    }

    /**
     * @param startKnown whether the start of the command is known (a start evicted from the in-flight table is not)
     * @param startSensitive whether the started command is known to have been sensitive
     * @return whether the failure of the command must be redacted: a hello whose start is unknown is, to be safe
     */
    public static boolean isSensitiveFailure(final String commandName, final boolean startKnown, final boolean startSensitive) {
        return isSensitiveName(commandName) || (isHello(commandName) && (!startKnown || startSensitive));
    }

    private static boolean containsSpeculativeAuthenticate(final BsonDocument document) {
        try {
            return document.containsKey(SPECULATIVE_AUTHENTICATE);
        } catch (RuntimeException e) {
            // unreadable: treat as sensitive
            return true;
        }
    }
}

package io.github.mongoredact.internal.event;

import io.github.mongoredact.internal.rules.SpecRedaction;
import org.bson.BsonDocument;

/**
 * Command names already found to be neither one of the spec's sensitive commands nor a hello, so that the spec's checks,
 * which compare a name with each sensitive name ignoring case, run once per name rather than on every event. Bounded: at most
 * {@link #SLOTS} names of at most {@link #MAX_NAME_LENGTH} characters (a new name takes the slot its hash points at); names
 * that are sensitive or a hello are never held, so a name held is one whose events the spec never redacts. Thread-safe:
 * strings are immutable and published through a plain array (a racing reader may miss and run the checks again).
 */
final class OrdinaryNames {
    static final int SLOTS = 64;
    static final int MAX_NAME_LENGTH = 64;
    private final String[] names = new String[SLOTS];

    /** @return whether the started command is sensitive, as {@link SpecRedaction#isSensitiveCommand} says */
    boolean isSensitiveCommand(final String commandName, final BsonDocument command) {
        if (isOrdinary(commandName)) {
            return false;
        }
        boolean sensitive = SpecRedaction.isSensitiveCommand(commandName, command);
        if (!sensitive && !SpecRedaction.isHello(commandName) && commandName.length() <= MAX_NAME_LENGTH) {
            names[slot(commandName)] = commandName;
        }
        return sensitive;
    }

    /**
     * @return whether the name is held: not sensitive and not a hello, so that neither its reply nor its failure is the spec's
     *         to redact ({@link SpecRedaction#isSensitiveReply}, {@link SpecRedaction#isSensitiveFailure} are false)
     */
    boolean isOrdinary(final String commandName) {
        String held = names[slot(commandName)];
        // String.equals tries identity first
        return commandName.equals(held);
    }

    /**
     * The slot from the name's length and three of its characters, not from {@link String#hashCode}: the driver decodes the
     * command name from the command's bytes, so that most events bring a new string whose hash would be computed over every
     * character each time; the {@code equals} that confirms a hit compares the characters in bulk.
     */
    static int slot(final String name) {
        int length = name.length();
        if (length == 0) {
            return 0;
        }
        int h = ((length * 31 + name.charAt(0)) * 31 + name.charAt(length >>> 1)) * 31 + name.charAt(length - 1);
        return (h ^ (h >>> 9)) & (SLOTS - 1);
    }
}

package io.github.mongoredact.internal.rules;

import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;

import java.nio.charset.StandardCharsets;

/**
 * Whether the rules keep a string in a field of a command's top level, matched as the walker matches it at that depth: the
 * rule of its path (a typed {@code KEEP} must take strings), else the first {@code **.key} (or {@code **.*}) rule of one
 * segment, else the rules' default.
 *
 * <p>The answers for short ASCII keys are remembered by command name (which picks the rule set) and key, in a small table
 * ({@link #SLOTS} entries, a new key takes the slot its hash points at, and only an empty slot: so a steady mix of keys
 * allocates nothing), because the first field of every command is looked up: the command's rule set by its name, then the
 * rule tree key by key. Thread-safe: entries are immutable and published through a plain array (a racing reader may miss
 * and match the rules again). One instance per listener, so that the table holds only the answers of its policy and goes
 * with it.</p>
 */
public final class TopLevelRules {
    static final int SLOTS = 128;
    static final int MAX_KEY_BYTES = 32;
    private static final String GET_MORE = "getMore";
    private final CompiledPolicy policy;
    private final Entry[] entries = new Entry[SLOTS];

    public TopLevelRules(final CompiledPolicy policy) {
        this.policy = policy;
    }

    /** @return whether the rules of the command keep a string in its top-level key {@code src[off, off + len)} */
    public boolean keeps(final String commandName, final byte[] src, final int off, final int len) {
        if (len > MAX_KEY_BYTES) {
            return keepsString(policy.commandRules(commandName), src, off, len);
        }
        int h = 0;
        for (int i = off; i < off + len; i++) {
            if (src[i] < 0) {
                return keepsString(policy.commandRules(commandName), src, off, len);
            }
            h = 31 * h + src[i];
        }
        // for ASCII the same hash as the key's String.hashCode()
        int hash = h * 31 + commandName.hashCode();
        Entry entry = entries[slot(hash)];
        if (entry != null && entry.commandName.equals(commandName) && Bytes.equal(entry.bytes, src, off, len)) {
            return entry.keeps;
        }
        boolean keeps = keepsString(policy.commandRules(commandName), src, off, len);
        remember(hash, commandName, new String(src, off, len, StandardCharsets.US_ASCII), keeps);
        return keeps;
    }

    /** @return whether the rules of the command keep a string in its top-level key, matched on the key's UTF-8 bytes */
    public boolean keeps(final String commandName, final String key) {
        int hash = key.hashCode() * 31 + commandName.hashCode();
        Entry entry = entries[slot(hash)];
        if (entry != null && entry.key.equals(key) && entry.commandName.equals(commandName)) {
            return entry.keeps;
        }
        byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
        boolean keeps = keepsString(policy.commandRules(commandName), bytes, 0, bytes.length);
        if (bytes.length <= MAX_KEY_BYTES && bytes.length == key.length()) {
            remember(hash, commandName, key, keeps);
        }
        return keeps;
    }

    private void remember(final int hash, final String commandName, final String key, final boolean keeps) {
        int slot = slot(hash);
        if (entries[slot] == null && commandName.length() <= MAX_KEY_BYTES) {
            entries[slot] = new Entry(commandName, key, keeps);
        }
    }

    private static int slot(final int hash) {
        return (hash ^ (hash >>> 16)) & (SLOTS - 1);
    }

    /** @return whether the rules keep a string in the top-level key {@code src[off, off + len)} */
    static boolean keepsString(final CompiledPolicy.RuleSet rules, final byte[] src, final int off, final int len) {
        return keepsValue(rules, src, off, len, BsonTypes.STRING);
    }

    /**
     * Whether the policy's copy of a {@code getMore} shows its cursor id, the {@code int64} of its first field, as it is:
     * the rules of {@code getMore} keep an {@code int64} there and the copy is not capped (past a cap only the copy knows what
     * survived, as for a reply's cursor id: {@link ReplyCursorIds}). Under {@code defaults()} and {@code specOnly()} it does.
     *
     * @return whether a cursor id read from the driver's {@code getMore} tells nothing its copy hides
     */
    public static boolean showsGetMoreCursorId(final CompiledPolicy policy) {
        if (policy.maxDocumentBytes > 0) {
            return false;
        }
        CompiledPolicy.RuleSet rules = policy.commandRules(GET_MORE);
        byte[] key = GET_MORE.getBytes(StandardCharsets.US_ASCII);
        return rules.verbatim || keepsValue(rules, key, 0, key.length, BsonTypes.INT64);
    }

    /** @return whether the rules keep a value of that BSON type in the top-level key {@code src[off, off + len)} */
    private static boolean keepsValue(final CompiledPolicy.RuleSet rules, final byte[] src, final int off, final int len,
                                      final byte type) {
        CompiledPolicy.Node child = rules.root.child(src, off, len);
        byte action = child == null ? CompiledPolicy.NONE : child.action;
        if (action == CompiledPolicy.NONE && rules.suffixes.length > 0) {
            action = PathMatcher.topLevelSuffixAction(rules.suffixesByLast, src, off, len);
        }
        action = action == CompiledPolicy.NONE ? rules.unmatched : action;
        return action == CompiledPolicy.KEEP && (child == null || child.accepts(type));
    }

    /** One remembered answer: immutable. */
    private static final class Entry {
        final String commandName;
        final String key;
        final byte[] bytes;
        final boolean keeps;

        Entry(final String commandName, final String key, final boolean keeps) {
            this.commandName = commandName;
            this.key = key;
            this.bytes = key.getBytes(StandardCharsets.US_ASCII);
            this.keeps = keeps;
        }
    }
}

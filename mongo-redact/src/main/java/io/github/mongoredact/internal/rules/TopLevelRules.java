package io.github.mongoredact.internal.rules;

import io.github.mongoredact.internal.bson.BsonTypes;

import java.nio.charset.StandardCharsets;

/**
 * Whether the rules keep a string in a field of a command's top level, matched as the walker matches it at that depth: the
 * rule of its path (a typed {@code KEEP} must take strings), else the first {@code **.key} (or {@code **.*}) rule of one
 * segment, else the rules' default. The command's rule set by its name, then the rule tree by the key's bytes: two look-ups
 * in the compiled policy's tables, nothing remembered. Thread-safe; one instance per listener.
 */
public final class TopLevelRules {
    private static final String GET_MORE = "getMore";
    private final CompiledPolicy policy;

    public TopLevelRules(final CompiledPolicy policy) {
        this.policy = policy;
    }

    /** @return whether the rules of the command keep a string in its top-level key {@code src[off, off + len)} */
    public boolean keeps(final String commandName, final byte[] src, final int off, final int len) {
        return keepsString(policy.commandRules(commandName), src, off, len);
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
}

package io.github.mongoredact.internal.policy;

import io.github.mongoredact.internal.bson.Bytes;

/**
 * The action the rules give a field of a command's top level, matched as the walker matches it at that depth: the rule of
 * its path, else the first {@code **.key} (or {@code **.*}) rule of one segment, else the rules' default. Stateless,
 * allocation-free.
 */
final class TopLevelRules {

    private TopLevelRules() {
    }

    /** @return the action for the top-level key {@code src[off, off + len)} */
    static byte action(final CompiledPolicy.RuleSet rules, final byte[] src, final int off, final int len) {
        CompiledPolicy.Node child = rules.root.child(src, off, len);
        byte action = child == null ? CompiledPolicy.NONE : child.action;
        if (action == CompiledPolicy.NONE) {
            action = suffixAction(rules, src, off, len);
        }
        return action == CompiledPolicy.NONE ? rules.unmatched : action;
    }

    /** The first one-segment suffix rule that matches the key: at depth 1 no longer suffix can match. */
    private static byte suffixAction(final CompiledPolicy.RuleSet rules, final byte[] src, final int off, final int len) {
        if (rules.suffixes.length == 0) {
            return CompiledPolicy.NONE;
        }
        for (CompiledPolicy.Suffix suffix : rules.suffixesByLast[CompiledPolicy.suffixSlot(src, off, len)]) {
            if (suffix.segments.length != 1) {
                continue;
            }
            byte[] segment = suffix.segments[0];
            if ((segment.length == 1 && segment[0] == '*') || Bytes.equal(segment, src, off, len)) {
                return suffix.action;
            }
        }
        return CompiledPolicy.NONE;
    }
}

package io.github.mongoredact.internal.rules;

import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.mask.DataLikeKeys;

import static io.github.mongoredact.internal.rules.CompiledPolicy.DROP;
import static io.github.mongoredact.internal.rules.CompiledPolicy.FLAGS_ONLY;
import static io.github.mongoredact.internal.rules.CompiledPolicy.KEEP;
import static io.github.mongoredact.internal.rules.CompiledPolicy.KEEP_FLAGS;
import static io.github.mongoredact.internal.rules.CompiledPolicy.PIPELINE;
import static io.github.mongoredact.internal.rules.CompiledPolicy.REDACT;
import static io.github.mongoredact.internal.rules.CompiledPolicy.REDACT_KEYS;

/**
 * Whether the copy a policy makes of a reply keeps its {@code cursor.id} as an {@code int64}, under its key, decided once per
 * reply rule set as the walker decides each element: the action of {@code cursor} (a typed {@code KEEP} must take a document;
 * {@code DROP} leaves it out; {@code REDACT_KEYS} masks the keys inside; a kept {@code cursor} with no rule below, no
 * {@code **.} rule and no sequence limit is copied whole), then the action of {@code id} inside it (a typed
 * {@code KEEP} must take an {@code int64}; {@code KEEP_FLAGS} keeps -1, 0 and 1 only). Under a policy with a size cap the
 * answer is {@link #NEVER}: whether the id survives the cut is known only from the copy. So a cursor id read from the reply
 * where the answer allows it is what the copy would show, and nothing the copy hides.
 *
 * <p>Stateless; the answer is kept in the compiled {@link CompiledPolicy.RuleSet}.</p>
 */
public final class ReplyCursorIds {
    /** The copy never shows the id. */
    public static final byte NEVER = 0;
    /** The copy shows every {@code int64} id. */
    public static final byte ALWAYS = 1;
    /** The copy shows an {@code int64} id only where it is a flag: -1, 0 or 1. */
    public static final byte FLAGS = 2;

    /** The path's keys, {@code cursor} then {@code id}, in one array as a walk's source holds them. */
    private static final byte[] KEYS = {'c', 'u', 'r', 's', 'o', 'r', 'i', 'd'};
    private static final int CURSOR_LENGTH = 6;

    private ReplyCursorIds() {
    }

    /**
     * @param rules the reply rules of a command
     * @param maskDataLikeKeys whether the policy masks keys that look like data where values are redacted
     * @param sequenceLimit whether the policy limits sequences ({@code maxSequenceDocuments}): a reply's {@code cursor} is
     *                      then walked, never copied whole
     * @param capped whether the policy caps the copy's size
     * @return {@link #NEVER}, {@link #ALWAYS} or {@link #FLAGS}
     */
    static byte decide(final CompiledPolicy.RuleSet rules, final boolean maskDataLikeKeys, final boolean sequenceLimit,
                       final boolean capped) {
        if (capped) {
            return NEVER;
        }
        if (rules.verbatim) {
            return ALWAYS;
        }
        PathMatcher matcher = new PathMatcher();
        matcher.bind(rules);
        byte action = matcher.push(KEYS, KEYS, 0, CURSOR_LENGTH, rules.root, rules.unmatched);
        CompiledPolicy.Node cursor = matcher.child();
        if (action == KEEP && cursor != null && !cursor.accepts(BsonTypes.DOCUMENT)) {
            action = REDACT;
        }
        if (action == DROP || action == REDACT_KEYS
                || maskedKey(maskDataLikeKeys, action, matcher.named(rules.root), 0, CURSOR_LENGTH)) {
            return NEVER;
        }
        if (action == PIPELINE) {
            // a pipeline's rules are for arrays: a document there is redacted, the rules below it not consulted
            action = REDACT;
            cursor = null;
        }
        if (action == KEEP && !(cursor != null && cursor.hasChildren()) && !matcher.hasSuffixRules() && !sequenceLimit) {
            return ALWAYS;
        }
        byte inherited = action == KEEP_FLAGS || action == FLAGS_ONLY ? REDACT : action;
        byte id = matcher.push(KEYS, KEYS, CURSOR_LENGTH, KEYS.length - CURSOR_LENGTH, cursor, inherited);
        CompiledPolicy.Node idNode = matcher.child();
        if (id == KEEP) {
            return idNode == null || idNode.accepts(BsonTypes.INT64) ? ALWAYS : NEVER;
        }
        if (id == KEEP_FLAGS) {
            return maskedKey(maskDataLikeKeys, id, matcher.named(cursor), CURSOR_LENGTH, KEYS.length) ? NEVER : FLAGS;
        }
        return NEVER;
    }

    /** @return whether the copy holds an {@code int64} id of this value under the answer {@code decided} */
    public static boolean shows(final byte decided, final long id) {
        return decided == ALWAYS || (decided == FLAGS && id >= -1 && id <= 1);
    }

    /**
     * @return whether the walker writes the key {@code KEYS[from, to)} masked: under a redacting action, where no rule names
     *         it and it looks like data
     */
    private static boolean maskedKey(final boolean maskDataLikeKeys, final byte action, final boolean named, final int from,
                                     final int to) {
        if (!maskDataLikeKeys || action == KEEP || named) {
            return false;
        }
        boolean suspect = false;
        for (int i = from; i < to; i++) {
            suspect |= DataLikeKeys.isSuspect(KEYS[i]);
        }
        return DataLikeKeys.mayLookLikeData(suspect, to - from) && DataLikeKeys.isDataLike(KEYS, from, to);
    }
}

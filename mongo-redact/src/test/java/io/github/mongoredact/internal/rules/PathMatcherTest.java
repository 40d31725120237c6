package io.github.mongoredact.internal.rules;

import io.github.mongoredact.FieldAction;
import io.github.mongoredact.RedactionPolicy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The matcher's action for a path: the rule tree first, then the longest suffix rule, then the inherited action. */
class PathMatcherTest {
    /** The keys, each ending with NUL, so that they stand in a source array as in BSON. */
    private static final byte[] KEYS = "filter\0a\0b\0cursor\0firstBatch\0nextBatch\0other\0".getBytes(StandardCharsets.UTF_8);

    private static CompiledPolicy.RuleSet rules(final RedactionPolicy policy) {
        return CompiledPolicies.compile(policy).commandRules("find");
    }

    private static byte push(final PathMatcher matcher, final String key, final CompiledPolicy.Node node, final byte inherited) {
        int k = indexOfKey(key);
        return matcher.push(KEYS, KEYS, k, key.length(), node, inherited);
    }

    private static int indexOfKey(final String key) {
        String all = new String(KEYS, StandardCharsets.UTF_8);
        int k = all.startsWith(key + "\0") ? 0 : all.indexOf("\0" + key + "\0") + 1;
        assertTrue(k >= 0, key);
        return k;
    }

    @Test
    void aRuleOnThePathWinsOverASuffixRule() {
        CompiledPolicy.RuleSet rules = rules(RedactionPolicy.builder().clearRules().keep("filter.a")
                .field("**.a", FieldAction.DROP).build());
        PathMatcher matcher = new PathMatcher();
        matcher.bind(rules);
        assertEquals(CompiledPolicy.REDACT, push(matcher, "filter", rules.root, CompiledPolicy.REDACT));
        CompiledPolicy.Node filter = matcher.child();
        assertEquals(CompiledPolicy.KEEP, push(matcher, "a", filter, CompiledPolicy.REDACT));
        matcher.depth(0);
        push(matcher, "other", rules.root, CompiledPolicy.REDACT);
        assertEquals(CompiledPolicy.DROP, push(matcher, "a", null, CompiledPolicy.REDACT));
    }

    @Test
    void theLongestMatchingSuffixRuleWins() {
        CompiledPolicy.RuleSet rules = rules(RedactionPolicy.builder().clearRules().field("**.b", FieldAction.DROP)
                .field("**.a.b", FieldAction.KEEP).field("**.*", FieldAction.REDACT_KEYS).build());
        PathMatcher matcher = new PathMatcher();
        matcher.bind(rules);
        assertTrue(matcher.hasSuffixRules());
        assertEquals(CompiledPolicy.REDACT_KEYS, push(matcher, "a", null, CompiledPolicy.REDACT));
        assertEquals(CompiledPolicy.KEEP, push(matcher, "b", null, CompiledPolicy.REDACT));
        matcher.depth(0);
        push(matcher, "filter", null, CompiledPolicy.REDACT);
        assertEquals(CompiledPolicy.DROP, push(matcher, "b", null, CompiledPolicy.REDACT));
    }

    @Test
    void aSuffixRuleReadsTheFirstKeyInTheTopLevelAndTheOthersWhereTheyLie() {
        // a plain top level's sequence document lies in an array of its own, under a key of the top level's scratch: the key
        // "documents" at index 3 of one array, "email" at index 3 of the other, whose bytes there are not "documents"
        byte[] top = "\0\0\0documents\0".getBytes(StandardCharsets.UTF_8);
        byte[] document = "\0\0\0email\0\0\0\0\0\0\0\0\0".getBytes(StandardCharsets.UTF_8);
        CompiledPolicy.RuleSet rules = rules(RedactionPolicy.builder(RedactionPolicy.specOnly())
                .field("**.documents.email", FieldAction.REDACT).build());
        PathMatcher matcher = new PathMatcher();
        matcher.bind(rules);
        assertEquals(CompiledPolicy.KEEP, matcher.push(top, top, 3, "documents".length(), null, CompiledPolicy.KEEP));
        assertEquals(CompiledPolicy.REDACT, matcher.push(top, document, 3, "email".length(), null, CompiledPolicy.KEEP));
        // a path of one key, the top level's: read in the top level too
        matcher.depth(0);
        CompiledPolicy.RuleSet topLevel = rules(RedactionPolicy.builder(RedactionPolicy.specOnly())
                .field("**.documents", FieldAction.DROP).build());
        matcher.bind(topLevel);
        assertEquals(CompiledPolicy.DROP, matcher.push(top, top, 3, "documents".length(), null, CompiledPolicy.KEEP));
    }

    @Test
    void aKeyNoRuleNamesInheritsTheActionFromAbove() {
        CompiledPolicy.RuleSet rules = rules(RedactionPolicy.builder().clearRules().keep("filter.a").build());
        PathMatcher matcher = new PathMatcher();
        matcher.bind(rules);
        assertFalse(matcher.hasSuffixRules());
        assertEquals(CompiledPolicy.SCRUB, push(matcher, "other", rules.root, CompiledPolicy.SCRUB));
        assertNull(matcher.child());
        assertEquals(CompiledPolicy.KEEP_FLAGS, push(matcher, "b", null, CompiledPolicy.KEEP_FLAGS));
        assertEquals(2, matcher.depth());
    }

    @Test
    void recognisesAReplyBatchOnlyUnderTheTopLevelCursor() {
        PathMatcher matcher = new PathMatcher();
        matcher.bind(rules(RedactionPolicy.defaults()));
        push(matcher, "cursor", null, CompiledPolicy.REDACT);
        push(matcher, "firstBatch", null, CompiledPolicy.REDACT);
        assertTrue(matcher.isReplyBatch(KEYS, indexOfKey("firstBatch"), "firstBatch".length()));
        assertTrue(matcher.isReplyBatch(KEYS, indexOfKey("nextBatch"), "nextBatch".length()));
        assertFalse(matcher.isReplyBatch(KEYS, indexOfKey("other"), "other".length()));
        matcher.depth(0);
        push(matcher, "other", null, CompiledPolicy.REDACT);
        push(matcher, "firstBatch", null, CompiledPolicy.REDACT);
        assertFalse(matcher.isReplyBatch(KEYS, indexOfKey("firstBatch"), "firstBatch".length()));
    }
}

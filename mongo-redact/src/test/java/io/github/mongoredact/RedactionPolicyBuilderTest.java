package io.github.mongoredact;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RedactionPolicyBuilder} validates in {@code build()} with messages that name the problem, and the policies it builds
 * are immutable.
 */
class RedactionPolicyBuilderTest {

    private static String buildFailure(final RedactionPolicyBuilder builder) {
        return assertThrows(IllegalArgumentException.class, builder::build).getMessage();
    }

    @Test
    void emptyPathIsRefused() {
        assertEquals("a rule path can not be empty", buildFailure(RedactionPolicy.builder().keep("")));
    }

    @Test
    void emptySegmentIsRefusedWithItsIndex() {
        assertEquals("rule path 'a..b' has an empty segment at index 1", buildFailure(RedactionPolicy.builder().keep("a..b")));
        assertEquals("rule path '.a' has an empty segment at index 0", buildFailure(RedactionPolicy.builder().redact(".a")));
        assertEquals("rule path 'a.' has an empty segment at index 1", buildFailure(RedactionPolicy.builder().drop("a.")));
    }

    @Test
    void doubleStarOnlyFirstAndNotAlone() {
        assertEquals("rule path 'a.**': '**' may only be the first segment, found at index 1",
                buildFailure(RedactionPolicy.builder().keep("a.**")));
        assertEquals("rule path '**' needs at least one segment after it", buildFailure(RedactionPolicy.builder().keep("**")));
        // valid forms
        RedactionPolicy.builder().keep("**.a").keep("*.a").keep("a.*").build();
    }

    @Test
    void onlyTheStageContextIsKnownAndNeedsASegment() {
        assertEquals("rule path '@stage': a context must be '@stage' followed by at least one segment, found '@stage'",
                buildFailure(RedactionPolicy.builder().keep("@stage")));
        assertEquals("rule path '@pipeline.$limit': a context must be '@stage' followed by at least one segment, found"
                + " '@pipeline'", buildFailure(RedactionPolicy.builder().keep("@pipeline.$limit")));
        RedactionPolicy.builder().keep("@stage.$limit").field("@stage.$facet.*", FieldAction.PIPELINE).build();
    }

    @Test
    void pipelineIsNotAnUnmatchedAction() {
        assertEquals("unmatchedCommandAction must be KEEP, REDACT or REDACT_KEYS, was PIPELINE",
                buildFailure(RedactionPolicy.builder().unmatchedCommandAction(FieldAction.PIPELINE)));
    }

    @Test
    void maskKeysIsARedactKeysRule() {
        RedactionPolicy policy = RedactionPolicy.builder().clearRules().maskKeys("updates.u.$set").build();
        assertEquals(List.of(new FieldRule(FieldRule.Target.COMMAND, null, "updates.u.$set", FieldAction.REDACT_KEYS)),
                policy.getRules());
    }

    @Test
    void defaultsHaveNoRuleThatMatchesAtAnyDepth() {
        for (FieldRule rule : RedactionPolicy.defaults().getRules()) {
            assertFalse(rule.getPath().startsWith("**"), rule.toString());
        }
    }

    @Test
    void badCapsAreRefusedWithTheirValues() {
        assertEquals("maxSequenceDocuments must be 0 or more, was -1",
                buildFailure(RedactionPolicy.builder().maxSequenceDocuments(-1)));
        assertEquals("maxDocumentBytes must be 0 (no cap) or at least 64, was 63",
                buildFailure(RedactionPolicy.builder().maxDocumentBytes(63)));
        assertEquals("maxDocumentBytes must be 0 (no cap) or at least 64, was -5",
                buildFailure(RedactionPolicy.builder().maxDocumentBytes(-5)));
        assertEquals(64, RedactionPolicy.builder().maxDocumentBytes(RedactionPolicy.MIN_DOCUMENT_BYTES).build()
                .getMaxDocumentBytes());
        assertEquals(0, RedactionPolicy.builder().maxSequenceDocuments(0).build().getMaxSequenceDocuments());
    }

    @Test
    void unmatchedActionsMustNotScrubOrDrop() {
        assertEquals("unmatchedCommandAction must be KEEP, REDACT or REDACT_KEYS, was DROP",
                buildFailure(RedactionPolicy.builder().unmatchedCommandAction(FieldAction.DROP)));
        assertEquals("unmatchedReplyAction must be KEEP, REDACT or REDACT_KEYS, was SCRUB",
                buildFailure(RedactionPolicy.builder().unmatchedReplyAction(FieldAction.SCRUB)));
    }

    @Test
    void nullsAreRefusedAtOnceByName() {
        assertEquals("path can not be null", assertThrows(IllegalArgumentException.class,
                () -> RedactionPolicy.builder().keep(null)).getMessage());
        assertEquals("action can not be null", assertThrows(IllegalArgumentException.class,
                () -> RedactionPolicy.builder().field("a", null)).getMessage());
        assertEquals("placeholderStyle can not be null", assertThrows(IllegalArgumentException.class,
                () -> RedactionPolicy.builder().placeholderStyle(null)).getMessage());
        assertEquals("policy can not be null", assertThrows(IllegalArgumentException.class,
                () -> RedactingCommandListener.builder().policy(null)).getMessage());
        assertEquals("maxInFlight must be 1 or more, was 0", assertThrows(IllegalArgumentException.class,
                () -> RedactingCommandListener.builder().maxInFlight(0)).getMessage());
    }

    @Test
    void rulesAreValidatedOnlyInBuild() {
        RedactionPolicyBuilder builder = RedactionPolicy.builder().keep("a..b");
        // the builder accepted it; build() names it
        assertTrue(buildFailure(builder).contains("a..b"));
    }

    @Test
    void rulesAreUnmodifiableAndCopiedAtBuild() {
        RedactionPolicyBuilder builder = RedactionPolicy.builder(RedactionPolicy.specOnly()).keep("filter");
        RedactionPolicy policy = builder.build();
        List<FieldRule> rules = policy.getRules();
        assertEquals(1, rules.size());
        assertThrows(UnsupportedOperationException.class, () -> rules.add(rules.get(0)));
        assertThrows(UnsupportedOperationException.class, rules::clear);
        assertThrows(UnsupportedOperationException.class, () -> RedactionPolicy.defaults().getRules().remove(0));
        builder.redact("query").maxSequenceDocuments(3);
        assertEquals(1, policy.getRules().size(), "later builder changes do not reach a built policy");
        assertEquals(Integer.MAX_VALUE, policy.getMaxSequenceDocuments());
        assertEquals(2, builder.build().getRules().size());
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(new LastEventListener()).build();
        assertThrows(UnsupportedOperationException.class, () -> listener.getListeners().add(new LastEventListener()));
    }

    @Test
    void laterRuleForTheSamePathReplacesTheEarlier() {
        RedactionPolicy policy = RedactionPolicy.builder(RedactionPolicy.specOnly()).keep("filter").redact("filter")
                .field("find", "filter", FieldAction.DROP).build();
        assertEquals(2, policy.getRules().size(), policy.getRules().toString());
        assertEquals(FieldAction.REDACT, policy.getRules().get(0).getAction());
        assertEquals("find", policy.getRules().get(1).getCommandName());
    }

    @Test
    void predefinedPoliciesSayWhatTheyAre() {
        assertTrue(RedactionPolicy.specOnly().getRules().isEmpty());
        assertEquals(FieldAction.KEEP, RedactionPolicy.specOnly().getUnmatchedCommandAction());
        assertEquals(FieldAction.REDACT, RedactionPolicy.defaults().getUnmatchedCommandAction());
        assertEquals(FieldAction.REDACT, RedactionPolicy.defaults().getUnmatchedReplyAction());
        assertTrue(RedactionPolicy.defaults().isRedactFailures());
        assertEquals(PlaceholderStyle.TYPED, RedactionPolicy.defaults().getPlaceholderStyle());
        assertEquals(RedactionPolicy.defaults().getRules(), RedactionPolicy.builder().build().getRules());
        assertNotSame(RedactionPolicy.defaults(), RedactionPolicy.builder().build());
        assertSame(RedactionPolicy.defaults(), RedactingCommandListener.builder().build().getPolicy());
    }
}

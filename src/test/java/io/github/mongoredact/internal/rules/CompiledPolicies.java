package io.github.mongoredact.internal.rules;

import io.github.mongoredact.KeyMasking;
import io.github.mongoredact.PlaceholderStyle;
import io.github.mongoredact.RedactionPolicy;

/** The compiled form of a policy, for tests that drive the rules or the walker without a listener. */
public final class CompiledPolicies {
    private CompiledPolicies() {
    }

    /** @return the policy compiled as {@code RedactionPolicy} compiles it */
    public static CompiledPolicy compile(final RedactionPolicy policy) {
        return CompiledPolicy.compile(policy.getRules(), policy.getUnmatchedCommandAction(), policy.getUnmatchedReplyAction(),
                policy.getPlaceholderStyle() == PlaceholderStyle.FIXED, policy.getKeyMasking() == KeyMasking.DATA_LIKE,
                policy.getMaxSequenceDocuments(), policy.getMaxDocumentBytes());
    }
}

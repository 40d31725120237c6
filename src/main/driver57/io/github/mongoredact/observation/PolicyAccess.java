package io.github.mongoredact.observation;

import io.github.mongoredact.KeyMasking;
import io.github.mongoredact.PlaceholderStyle;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.rules.CompiledPolicy;

/** The compiled form of a policy, made from its public settings as the policy makes its own. Stateless. */
final class PolicyAccess {
    private PolicyAccess() {
    }

    static CompiledPolicy compiled(final RedactionPolicy policy) {
        return CompiledPolicy.compile(policy.getRules(), policy.getUnmatchedCommandAction(), policy.getUnmatchedReplyAction(),
                policy.getPlaceholderStyle() == PlaceholderStyle.FIXED, policy.getKeyMasking() == KeyMasking.DATA_LIKE,
                policy.getMaxSequenceDocuments(),
                policy.getMaxDocumentBytes());
    }
}

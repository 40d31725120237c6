package io.github.mongoredact.observation;

import io.github.mongoredact.FieldRule;
import io.github.mongoredact.KeyMasking;
import io.github.mongoredact.PlaceholderStyle;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import io.github.mongoredact.internal.rules.PlainRule;

import java.util.ArrayList;
import java.util.List;

/** The compiled form of a policy, made from its public settings as the policy makes its own. Stateless. */
final class PolicyAccess {
    private PolicyAccess() {
    }

    static CompiledPolicy compiled(final RedactionPolicy policy) {
        List<PlainRule> rules = new ArrayList<>();
        for (FieldRule rule : policy.getRules()) {
            rules.add(new PlainRule(rule.getTarget() == FieldRule.Target.REPLY, rule.getCommandName(), rule.getPath(),
                    rule.getAction().name(), rule.getTypes()));
        }
        return CompiledPolicy.compile(rules, PlainRule.action(policy.getUnmatchedCommandAction().name()),
                PlainRule.action(policy.getUnmatchedReplyAction().name()), policy.getPlaceholderStyle() == PlaceholderStyle.FIXED,
                policy.getKeyMasking() == KeyMasking.DATA_LIKE, policy.getMaxSequenceDocuments(), policy.getMaxDocumentBytes());
    }
}

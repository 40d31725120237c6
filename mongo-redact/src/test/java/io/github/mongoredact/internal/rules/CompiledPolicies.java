package io.github.mongoredact.internal.rules;

import io.github.mongoredact.RedactionPolicy;

import java.lang.reflect.Method;

/** The compiled form of a policy, for tests that drive the rules or the walker without a listener. */
public final class CompiledPolicies {
    private CompiledPolicies() {
    }

    /** @return the policy compiled as {@code RedactionPolicy} compiles it: its own compiled form, the one its listener uses */
    public static CompiledPolicy compile(final RedactionPolicy policy) {
        try {
            Method compiledOf = RedactionPolicy.class.getDeclaredMethod("compiledOf", RedactionPolicy.class);
            compiledOf.setAccessible(true);
            return (CompiledPolicy) compiledOf.invoke(null, policy);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("RedactionPolicy.compiledOf(RedactionPolicy) is gone", e);
        }
    }
}

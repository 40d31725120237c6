/**
 * Not API: may change in any release. The compiled policy: the rule tree a walk consults ({@code CompiledPolicy}, {@code PathMatcher}, the
 * first-field rules of {@code TopLevelRules}), the specification's sensitive commands, and which collection names may be shown. Data only:
 * nothing here reads a document element by element.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal.rules;

import com.mongodb.lang.NonNullApi;

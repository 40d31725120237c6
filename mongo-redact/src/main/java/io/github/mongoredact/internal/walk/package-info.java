/**
 * Not API: may change in any release. The walker that applies the compiled rules to a document: one pass over its bytes that counts,
 * writes or only analyses (collection, fingerprint) a redacted copy of exact size ({@code RedactionWalker}, {@code WalkDriver}). Its entry
 * point, {@code DocumentRedactor}, borrowed for one callback from a pool shared by all threads, holds a walker and turns a driver's
 * document into an owned {@code Redaction}; its reader, {@code BsonCursor}, is also the one reader of a top level's few fields (a reply's
 * errors, a command's collection).
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal.walk;

import com.mongodb.lang.NonNullApi;

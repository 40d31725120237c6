/**
 * Not API: may change in any release. MongoDB 8.0's query shape and {@code queryShapeHash}, computed on the client as the server
 * computes them: {@code QueryShaper} reads a find, aggregate, count or distinct command (through the one element reader,
 * {@code BsonCursor}) and gives an immutable {@code QueryShape} (the debug shape as BSON and relaxed JSON, the hash), or no shape
 * where it can not give the exact one. Pure: no sink, no I/O; the rules and the server sources they come from are in the classes'
 * documentation.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal.shape;

import com.mongodb.lang.NonNullApi;

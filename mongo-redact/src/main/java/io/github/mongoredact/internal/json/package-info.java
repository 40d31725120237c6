/**
 * Not API: may change in any release. Relaxed extended JSON of owned documents, cut at a number of characters the way the
 * driver's command log cuts, in time and memory proportional to the limit ({@code TruncatedJson}); used by the log sink and
 * the OpenTelemetry sink.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal.json;

import com.mongodb.lang.NonNullApi;

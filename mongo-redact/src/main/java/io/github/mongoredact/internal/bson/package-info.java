/**
 * Not API: may change in any release. Reading and writing BSON bytes: bounds and validation of raw documents, the one access
 * to the driver's buffers ({@code DocumentBytes}, {@code DriverApi}), the encoder of plain documents, and the scratch space
 * a pooled redactor holds ({@code Workspace}). Knows nothing of policies.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal.bson;

import com.mongodb.lang.NonNullApi;

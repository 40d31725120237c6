/**
 * Not API: may change in any release. Scrubbing of the messages servers and the driver write: a server message is read by its grammar
 * ({@code ServerMessageScanner} over the words of {@code ServerMessageVocabulary}) and a client message by its templates, and only the
 * words they are allowed to say are kept. Works on text alone, below the walk that applies it to {@code errmsg} values.
 *
 * <p>Nullability: parameters and return values are non-null unless annotated {@code @Nullable} ({@code com.mongodb.lang}).</p>
 */
@NonNullApi
package io.github.mongoredact.internal.message;

import com.mongodb.lang.NonNullApi;

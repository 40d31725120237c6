package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.json.QueryTextCache;
import io.opentelemetry.api.common.Attributes;

/**
 * What the command spans of one server, database, collection and command name share: the attributes that depend only on
 * those, and the query texts of that kind of command ({@link QueryTextCache}), when the text is on. Thread-safe.
 */
final class SpanTemplate {
    final Attributes attributes;
    /** The query texts of this kind of command; null when the text is off. */
    @Nullable
    final QueryTextCache queryTexts;

    /** @param remembersTexts whether its query texts are remembered ({@link SpanTemplates} bounds the kinds that do) */
    SpanTemplate(final Attributes attributes, final int queryTextMaxLength, final boolean remembersTexts) {
        this.attributes = attributes;
        this.queryTexts = queryTextMaxLength > 0 ? new QueryTextCache(queryTextMaxLength, remembersTexts) : null;
    }
}

package io.github.mongoredact.otel;

import com.mongodb.connection.ServerId;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.OwnedDocument;
import io.github.mongoredact.StartedCommand;
import io.github.mongoredact.internal.json.QueryTextCache;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanBuilder;
import org.bson.BsonDocument;

/**
 * What the command spans of one server, database, collection and command name share: the attributes that depend only on
 * those, and the query texts of that kind of command ({@link QueryTextCache}), when the text is on. It also remembers the
 * last redacted copy it described ({@link RememberedCopy}, at most {@value RememberedCopy#MAX_BYTES} bytes): a copy with the
 * same bytes gets that copy's text and facts without being read again. A kind whose copies differ {@value #TRIAL} times in a
 * row stops remembering them. Thread-safe: the remembered copy is immutable and published without a lock (a lost write costs
 * a read of the next copy, never a wrong text).
 */
final class SpanTemplate {
    /** The copies in a row that differ from the one remembered before a kind stops remembering copies. */
    static final int TRIAL = 16;
    private final Kind kind;
    final Attributes attributes;
    /** The name of the spans of this kind (the command's, or the summary's: {@link SpanNaming}). */
    final String spanName;
    /** The {@code db.query.summary} of this kind, which {@link #attributes} holds. */
    final String summary;
    /** The query texts of this kind of command; null when the text is off. */
    @Nullable
    final QueryTextCache queryTexts;
    @Nullable
    private RememberedCopy last;
    private int differentInARow;
    private boolean remembersCopies;

    /** @param remembersTexts whether its query texts are remembered ({@link SpanTemplates} bounds the kinds that do) */
    SpanTemplate(final Kind kind, final Attributes attributes, final String spanName, final String summary,
                 final int queryTextMaxLength, final boolean remembersTexts) {
        this.kind = kind;
        this.attributes = attributes;
        this.spanName = spanName;
        this.summary = summary;
        this.queryTexts = queryTextMaxLength > 0 ? new QueryTextCache(queryTextMaxLength, remembersTexts) : null;
        this.remembersCopies = remembersTexts;
    }

    /**
     * Sets {@code db.query.text} and the copy's {@link SpanFacts} on the span, when the text is on and the command has its
     * redacted, owned copy.
     *
     * @param command the started command
     */
    void describe(final StartedCommand command, final SpanBuilder span) {
        QueryTextCache texts = queryTexts;
        BsonDocument copy = command.getCommand();
        OwnedDocument view = copy == null ? null : command.getCommandView();
        if (texts == null || copy == null || view == null) {
            return;
        }
        RememberedCopy known = last;
        if (known != null && known.isOf(view)) {
            if (differentInARow != 0) {
                differentInARow = 0;
            }
            span.setAttribute(SpanKeys.QUERY_TEXT, known.text);
            known.facts.applyTo(span);
            return;
        }
        String text = texts.render(copy);
        SpanFacts facts = new SpanFacts();
        DocumentFacts.ofCommand(view, command.getCommandName(), facts);
        span.setAttribute(SpanKeys.QUERY_TEXT, text);
        facts.applyTo(span);
        if (remembersCopies && texts.remembers()) {
            remember(view, known, text, facts);
        }
    }

    /** @return whether this is the template of that server, database, collection (or "") and command name */
    boolean is(final ServerId serverId, final String database, final String collection, final String command) {
        return kind.command.equals(command) && kind.collection.equals(collection) && kind.database.equals(database)
                && kind.serverId.equals(serverId);
    }

    /** @return whether this kind still remembers copies (tests) */
    boolean remembersCopies() {
        return remembersCopies;
    }

    private void remember(final OwnedDocument copy, @Nullable final RememberedCopy before, final String text,
                          final SpanFacts facts) {
        if (before != null && ++differentInARow >= TRIAL) {
            // this kind's copies keep differing (values the policy keeps, sessions taking turns): read each one
            remembersCopies = false;
            last = null;
            return;
        }
        if (RememberedCopy.fits(copy)) {
            last = new RememberedCopy(copy, text, facts);
        }
    }

    /** The key of a template: server, database, collection ("" where the span names none) and command name. */
    static final class Kind {
        final ServerId serverId;
        final String database;
        final String collection;
        final String command;

        Kind(final ServerId serverId, final String database, final String collection, final String command) {
            this.serverId = serverId;
            this.database = database;
            this.collection = collection;
            this.command = command;
        }
    }
}

package io.github.mongoredact.deny;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.bulk.BulkWriteInsert;
import com.mongodb.bulk.BulkWriteUpsert;
import com.mongodb.bulk.WriteConcernError;
import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds planted values in what the listener forwarded: every leaf and key of a document by its path, the relaxed JSON of the
 * whole document (so no value escapes the walk), and every text, document and write result a failure and its causes expose.
 */
final class LeakFinder {
    private static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();
    private static final int EXAMPLE_LENGTH = 140;

    private final Planted planted;
    private final List<Leak> leaks = new ArrayList<>();

    LeakFinder(final Planted planted) {
        this.planted = planted;
    }

    List<Leak> leaks() {
        return leaks;
    }

    /** Checks a forwarded document: each leaf by path, then its JSON for anything the walk did not see. */
    void document(final String family, final String path, @Nullable final BsonDocument document) {
        if (document == null) {
            return;
        }
        int before = leaks.size();
        walk(family, path, document);
        if (leaks.size() == before) {
            text(family, path + "#json", document.toJson(RELAXED));
        }
    }

    private void walk(final String family, final String path, final BsonValue value) {
        if (value.isDocument()) {
            for (Map.Entry<String, BsonValue> entry : value.asDocument().entrySet()) {
                String child = path.isEmpty() ? entry.getKey() : path + "." + entry.getKey();
                text(family, child + "#key", entry.getKey());
                walk(family, child, entry.getValue());
            }
        } else if (value.isArray()) {
            for (BsonValue element : value.asArray()) {
                walk(family, path + "[]", element);
            }
        } else if (value.isJavaScriptWithScope()) {
            leaf(family, path, value);
            walk(family, path + "#scope", value.asJavaScriptWithScope().getScope());
        } else {
            leaf(family, path, value);
        }
    }

    private void leaf(final String family, final String path, final BsonValue value) {
        Planted.Value found = planted.identify(value);
        if (found != null) {
            add(family, path, found.kind, String.valueOf(value));
        }
    }

    /** Checks a text: every planted value whose text form it holds. */
    void text(final String family, final String path, @Nullable final String text) {
        if (text == null) {
            return;
        }
        for (Planted.Value found : planted.inText(text)) {
            add(family, path, found.kind, excerpt(text, found));
        }
    }

    /** Checks a forwarded failure and its cause chain: texts, response documents, write errors and write results. */
    void failure(final String family, final String path, @Nullable final Throwable failure) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        String at = path;
        for (Throwable t = failure; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            text(family, at + ".getMessage()", t.getMessage());
            text(family, at + ".toString()", t.toString());
            if (t instanceof MongoCommandException) {
                document(family, at + ".getResponse()", ((MongoCommandException) t).getResponse());
            }
            if (t instanceof MongoWriteException) {
                MongoWriteException e = (MongoWriteException) t;
                text(family, at + ".getError().getMessage()", e.getError().getMessage());
                document(family, at + ".getError().getDetails()", e.getError().getDetails());
            }
            if (t instanceof MongoBulkWriteException) {
                bulk(family, at, (MongoBulkWriteException) t);
            }
            if (t instanceof MongoWriteConcernException) {
                MongoWriteConcernException e = (MongoWriteConcernException) t;
                concern(family, at + ".getWriteConcernError()", e.getWriteConcernError());
                if (e.getWriteResult() != null && e.getWriteResult().wasAcknowledged()) {
                    BsonValue id = e.getWriteResult().getUpsertedId();
                    if (id != null) {
                        walk(family, at + ".getWriteResult().getUpsertedId()", id);
                    }
                }
            }
            at = at + ".getCause()";
        }
    }

    private void bulk(final String family, final String at, final MongoBulkWriteException e) {
        for (BulkWriteError error : e.getWriteErrors()) {
            text(family, at + ".getWriteErrors()[].getMessage()", error.getMessage());
            document(family, at + ".getWriteErrors()[].getDetails()", error.getDetails());
        }
        concern(family, at + ".getWriteConcernError()", e.getWriteConcernError());
        if (e.getWriteResult().wasAcknowledged()) {
            for (BulkWriteUpsert upsert : e.getWriteResult().getUpserts()) {
                walk(family, at + ".getWriteResult().getUpserts()[].getId()", upsert.getId());
            }
            for (BulkWriteInsert insert : e.getWriteResult().getInserts()) {
                walk(family, at + ".getWriteResult().getInserts()[].getId()", insert.getId());
            }
        }
    }

    private void concern(final String family, final String at, @Nullable final WriteConcernError error) {
        if (error != null) {
            text(family, at + ".getMessage()", error.getMessage());
            document(family, at + ".getDetails()", error.getDetails());
        }
    }

    private void add(final String family, final String path, final String kind, final String example) {
        String shown = example.length() > EXAMPLE_LENGTH ? example.substring(0, EXAMPLE_LENGTH) + "..." : example;
        leaks.add(new Leak(family, path, kind, shown));
    }

    private static String excerpt(final String text, final Planted.Value found) {
        for (String form : found.texts) {
            int at = text.indexOf(form);
            if (at >= 0) {
                int from = Math.max(0, at - 60);
                return (from > 0 ? "..." : "") + text.substring(from, Math.min(text.length(), at + form.length() + 40));
            }
        }
        return text;
    }
}

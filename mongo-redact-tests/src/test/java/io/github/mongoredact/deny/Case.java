package io.github.mongoredact.deny;

import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;

import java.util.List;

/**
 * One constructed command of a family: its top level (ending with {@code $db}), the document sequences the driver would send
 * beside it, and what comes back: a reply, a failure, or both (sent as two commands).
 */
final class Case {
    final String family;
    final BsonDocument top;
    @Nullable
    final String sequence;
    @Nullable
    final List<BsonDocument> documents;
    @Nullable
    final String sequence2;
    @Nullable
    final List<BsonDocument> documents2;
    @Nullable
    BsonDocument reply;
    @Nullable
    Throwable failure;
    /** Whether the value of the first field is a collection name that must survive. */
    boolean firstIsCollection = true;

    Case(final String family, final BsonDocument top) {
        this(family, top, null, null, null, null);
    }

    Case(final String family, final BsonDocument top, @Nullable final String sequence,
         @Nullable final List<BsonDocument> documents, @Nullable final String sequence2,
         @Nullable final List<BsonDocument> documents2) {
        this.family = family;
        this.top = top;
        this.sequence = sequence;
        this.documents = documents;
        this.sequence2 = sequence2;
        this.documents2 = documents2;
    }

    String commandName() {
        return top.getFirstKey();
    }

    Case reply(final BsonDocument value) {
        this.reply = value;
        return this;
    }

    Case failure(final Throwable value) {
        this.failure = value;
        return this;
    }

    Case firstIsNotCollection() {
        this.firstIsCollection = false;
        return this;
    }
}

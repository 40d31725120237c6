package io.github.mongoredact.internal.event;

import io.github.mongoredact.internal.bson.BsonFormatException;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;

/**
 * The marker documents forwarded in place of a document that could not be copied: {@code {"$redactionError": "..."}}, saying
 * what failed, never the bytes that failed. Markers are {@link RawBsonDocument}s, immutable: every sink may get the same one
 * and none can change what the next sees.
 */
final class Markers {
    /** The marker's only key. */
    static final String KEY = "$redactionError";
    /** Built before it is needed: when the heap is exhausted, building it may fail too. */
    private static final RawBsonDocument OUT_OF_MEMORY = of("OutOfMemoryError while redacting");

    private Markers() {
    }

    /** @return the marker for a failure of the copy */
    static BsonDocument of(final Throwable e) {
        if (e instanceof OutOfMemoryError) {
            return OUT_OF_MEMORY;
        }
        String message = e instanceof BsonFormatException ? e.getMessage() : e.getClass().getSimpleName() + " while redacting";
        return of(String.valueOf(message));
    }

    private static RawBsonDocument of(final String message) {
        return new RawBsonDocument(new BsonDocument(KEY, new BsonString(message)), new BsonDocumentCodec());
    }
}

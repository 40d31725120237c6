package io.github.mongoredact.internal.event;

import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.Output;
import io.github.mongoredact.internal.bson.PlainEncoder;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.RawBsonDocument;

/**
 * The marker documents forwarded in place of a document that could not be copied: {@code {"$redactionError": "..."}}, saying
 * what failed, never the bytes that failed. Markers are {@link RawBsonDocument}s, immutable: every sink may get the same one
 * and none can change what the next sees; each in an array of exactly its size, written by the same encoder as every other
 * plain document ({@link PlainEncoder}), made afresh on this rare path.
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
        BsonDocument marker = new BsonDocument(KEY, new BsonString(message));
        PlainEncoder encoder = new PlainEncoder();
        byte[] bytes = new byte[encoder.size(marker)];
        Output out = new Output();
        out.exact(bytes, 0);
        encoder.write(marker, out);
        return new RawBsonDocument(bytes);
    }
}

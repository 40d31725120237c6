package io.github.mongoredact.otel;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * How many elements an array of a redacted copy stands for: its elements, where a policy's {@code maxSequenceDocuments} left
 * some out the last element being {@code {"$omitted": n}} (so the copy tells the count). Stateless.
 */
final class ShownCount {
    /** The field a policy's cap writes as the last element of a sequence or batch it shortened. */
    static final String OMITTED = "$omitted";
    /** The field a policy's {@code maxDocumentBytes} cap writes at the end of a document it cut. */
    static final String TRUNCATED = "$truncatedBytes";

    private ShownCount() {
    }

    /** @return the number of elements the array stands for, or -1 where the value is not an array or its count is unclear */
    static long of(final BsonValue value) {
        if (!value.isArray()) {
            return -1;
        }
        BsonArray array = value.asArray();
        int size = array.size();
        if (size == 0) {
            return 0;
        }
        BsonValue last = array.get(size - 1);
        if (last.isDocument() && last.asDocument().containsKey(OMITTED)) {
            BsonDocument marker = last.asDocument();
            BsonValue omitted = marker.get(OMITTED);
            return omitted.isNumber() && marker.size() == 1 ? size - 1 + omitted.asNumber().longValue() : -1;
        }
        return size;
    }
}

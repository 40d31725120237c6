package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The elements of plain documents, read into arrays to be walked by index: a document's entries are appended above those of
 * the documents that hold it ({@link #load}), then given back ({@link #release}), so that nesting takes its turn like a
 * stack. A {@link BsonDocument} of exactly that class is read through its map's {@code forEach}, with no iterator nor entry
 * set (an entry set is allocated once per document, and its iterator each time unless the compiler removes it, which it does
 * only in some compilations); other classes, or a runtime that opens no private field (the system property
 * {@code io.github.mongoredact.noFieldAccess=true}), through {@code entrySet()}.
 *
 * <p>Not thread-safe: one per encoder. Holds the caller's documents only while they are walked.</p>
 */
final class DocumentEntries implements BiConsumer<String, BsonValue> {
    /** {@code BsonDocument.map}, the same private field on every supported line; null when not open. */
    @Nullable
    private static final VarHandle MAP = mapField();
    private String[] keys = new String[16];
    private BsonValue[] values = new BsonValue[16];
    private int count;

    /**
     * Appends the entries of a plain (not byte-backed) document.
     *
     * @return the index of its first entry; its last is before {@link #end()}
     */
    int load(final BsonDocument document) {
        int from = count;
        Map<?, ?> map = MAP != null && document.getClass() == BsonDocument.class ? (Map<?, ?>) MAP.get(document) : null;
        if (map != null) {
            @SuppressWarnings("unchecked")
            Map<String, BsonValue> entries = (Map<String, BsonValue>) map;
            entries.forEach(this);
        } else {
            for (Map.Entry<String, BsonValue> entry : document.entrySet()) {
                accept(entry.getKey(), entry.getValue());
            }
        }
        return from;
    }

    @Override
    public void accept(final String key, final BsonValue value) {
        if (count == keys.length) {
            keys = Arrays.copyOf(keys, count * 2);
            values = Arrays.copyOf(values, count * 2);
        }
        keys[count] = key;
        values[count] = value;
        count++;
    }

    /** @return the index after the entries loaded last */
    int end() {
        return count;
    }

    String key(final int index) {
        return keys[index];
    }

    BsonValue value(final int index) {
        return values[index];
    }

    /** Forgets the entries from {@code from} on (those of the document loaded there, and of any it holds). */
    void release(final int from) {
        Arrays.fill(keys, from, count, null);
        Arrays.fill(values, from, count, null);
        count = from;
    }

    @Nullable
    private static VarHandle mapField() {
        if (Boolean.getBoolean("io.github.mongoredact.noFieldAccess")) {
            return null;
        }
        try {
            return MethodHandles.privateLookupIn(BsonDocument.class, MethodHandles.lookup())
                    .findVarHandle(BsonDocument.class, "map", Map.class);
        } catch (NoSuchFieldException | IllegalAccessException | RuntimeException e) {
            // a module that does not open org.bson, or another layout: entrySet() is read
            return null;
        }
    }
}

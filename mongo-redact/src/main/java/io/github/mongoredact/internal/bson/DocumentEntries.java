package io.github.mongoredact.internal.bson;

import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Hands the entries of a plain document to a visitor, in order, with nothing stored on the way: a {@link BsonDocument} of
 * exactly that class through its map's {@code forEach}, with no iterator nor entry set (an entry set is allocated once per
 * document, and its iterator each time unless the compiler removes it, which it does only in some compilations); other
 * classes, or a runtime that opens no private field (the system property {@code io.github.mongoredact.noFieldAccess=true}),
 * through {@code entrySet()}.
 *
 * <p>Stateless and thread-safe. The visitors ({@link PlainEncoder}'s writer, {@link SequenceViews}' pass over a top level) are
 * final classes, so that the compiler binds their call where it inlines the loop.</p>
 */
final class DocumentEntries {
    /** {@code BsonDocument.map}, the same private field on every supported line; null when not open. */
    @Nullable
    private static final VarHandle MAP = mapField();

    private DocumentEntries() {
    }

    /** Hands each entry of a plain (not byte-backed) document to {@code visitor}, in order. */
    static void forEach(final BsonDocument document, final BiConsumer<String, BsonValue> visitor) {
        Map<?, ?> map = MAP != null && document.getClass() == BsonDocument.class ? (Map<?, ?>) MAP.get(document) : null;
        if (map != null) {
            @SuppressWarnings("unchecked")
            Map<String, BsonValue> entries = (Map<String, BsonValue>) map;
            entries.forEach(visitor);
        } else {
            for (Map.Entry<String, BsonValue> entry : document.entrySet()) {
                visitor.accept(entry.getKey(), entry.getValue());
            }
        }
    }

    /** @return whether plain documents are read through their map (false: through {@code entrySet()}) */
    static boolean fieldAccess() {
        return MAP != null;
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

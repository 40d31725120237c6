package io.github.mongoredact.internal.json;

import io.github.mongoredact.Allocations;
import io.github.mongoredact.Documents;
import io.github.mongoredact.Json;
import org.bson.BsonDbPointer;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonRegularExpression;
import org.bson.BsonSerializationException;
import org.bson.BsonString;
import org.bson.BsonSymbol;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The renderer's limits: exactly the limit, one past it, characters at the cut, deep and huge documents. */
public class TruncatedJsonBoundsTest {
    private static final int SMALL_STACK = 256 * 1024;
    private static final int TEN_MB = 10 * 1024 * 1024;

    private static RawBsonDocument raw(final BsonDocument document) {
        return new RawBsonDocument(document, new BsonDocumentCodec());
    }

    /** @return what the work returned, or threw, on a new thread with a 256 KB stack */
    public static Object onSmallStack(final Callable<?> work) throws InterruptedException {
        AtomicReference<Object> result = new AtomicReference<>();
        Thread thread = new Thread(null, () -> {
            try {
                result.set(work.call());
            } catch (Throwable t) {
                result.set(t);
            }
        }, "small", SMALL_STACK);
        thread.start();
        thread.join();
        return result.get();
    }

    @Test
    void showsATextOfExactlyTheLimitWholeAndCutsOneLonger() {
        RawBsonDocument document = raw(new BsonDocument("find", new BsonString("users")).append("limit", new BsonInt32(1)));
        String whole = Json.whole(document);
        int length = whole.length();
        assertEquals(whole, TruncatedJson.render(document, length), "exactly the limit: whole, no ellipsis");
        assertEquals(whole, TruncatedJson.render(document, length + 1));
        assertEquals(whole.substring(0, length - 1) + " ...", TruncatedJson.render(document, length - 1),
                "one character longer than the limit: cut");
        assertEquals(Json.driverLog(document, length - 1), TruncatedJson.render(document, length - 1));
    }

    @Test
    void keepsCodePointsWholeAtEveryLimitAroundTheEnd() {
        RawBsonDocument document = raw(new BsonDocument("s", new BsonString("aé€😀日😀")));
        String whole = Json.whole(document);
        for (int max = 1; max <= whole.length() + 1; max++) {
            String rendered = TruncatedJson.render(document, max);
            if (max >= whole.length()) {
                assertEquals(whole, rendered, "max=" + max);
                continue;
            }
            String shown = rendered.substring(0, rendered.length() - 4);
            assertEquals(Json.wholeCharacters(whole, max) + " ...", rendered, "max=" + max);
            assertEquals(shown, new String(shown.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8), "max=" + max);
        }
    }

    @Test
    void cutsATextLongerThanTheLimitNeverInsideASurrogatePair() {
        assertEquals("abc", TruncatedJson.cut("abc", 3));
        assertEquals("abc ...", TruncatedJson.cut("abcd", 3));
        assertEquals("ab ...", TruncatedJson.cut("ab😀c", 3), "one fewer rather than half a pair");
        assertEquals("ab😀 ...", TruncatedJson.cut("ab😀c", 4));
        assertEquals("ab😀", TruncatedJson.cut("ab😀", 4), "exactly the limit: whole");
        assertEquals("ab😀c", TruncatedJson.cut("ab😀c", 0), "0: no limit");
        assertEquals("é€ ...", TruncatedJson.cut("é€日", 2));
    }

    @Test
    void rendersAThousandLevelDocumentOnA256KbStack() throws Exception {
        RawBsonDocument deep = Documents.deep(1000);
        String whole = Json.whole(deep);
        assertEquals(whole, onSmallStack(() -> TruncatedJson.render(deep, 0)));
        assertEquals(whole, onSmallStack(() -> TruncatedJson.render(deep, whole.length())));
        assertEquals(Json.driverLog(deep, 1000), onSmallStack(() -> TruncatedJson.render(deep, 1000)));
        RawBsonDocument deeper = Documents.deep(20_000);
        Object result = onSmallStack(() -> TruncatedJson.render(deeper, 0));
        assertTrue(result instanceof BsonSerializationException, "past the writer's 1024 levels: its own exception, not a"
                + " stack overflow: " + result);
        // the driver's own reader of a RawBsonDocument decodes it recursively: compare with the same prefix, 1000 levels deep
        assertEquals(Json.driverLog(deep, 1000), onSmallStack(() -> TruncatedJson.render(deeper, 1000)));
    }

    @Test
    void rendersLoneSurrogatesAndEveryLimitWithoutThrowing() {
        BsonDocument document = new BsonDocument("s", new BsonString("a\ud800b\udc00c")).append("\udbff", new BsonInt32(1));
        RawBsonDocument raw = raw(document);
        assertEquals(Json.whole(document), TruncatedJson.render(document, 0));
        assertEquals(Json.whole(raw), TruncatedJson.render(raw, 0));
        for (int max = 1; max < 40; max++) {
            String rendered = TruncatedJson.render(raw, max);
            assertFalse(Character.isHighSurrogate(rendered.charAt(rendered.length() - 1)), rendered);
            assertTrue(TruncatedJson.render(document, max).length() <= max + 4);
        }
    }

    @Test
    void throwsItsOwnExceptionOnAnUnknownType() {
        byte[] bytes = raw(new BsonDocument("a", new BsonInt32(1))).getByteBuffer().array().clone();
        bytes[4] = 0x42; // the type of "a"
        RawBsonDocument corrupt = new RawBsonDocument(bytes);
        assertThrows(BsonSerializationException.class, () -> TruncatedJson.render(corrupt, 1000));
        assertThrows(BsonSerializationException.class, () -> TruncatedJson.render(corrupt, 0));
    }

    @Test
    void readsNoMoreOfAHugeDocumentThanTheLimitNeeds() {
        String huge = Documents.repeat('n', TEN_MB);
        Map<String, RawBsonDocument> documents = new LinkedHashMap<>();
        documents.put("a 10 MB string", raw(new BsonDocument("insert", new BsonString("users"))
                .append("s", new BsonString(huge))));
        documents.put("a 10 MB name", raw(new BsonDocument("insert", new BsonString("users"))
                .append(huge, new BsonInt32(1))));
        documents.put("a 10 MB regular expression", raw(new BsonDocument("r", new BsonRegularExpression(huge, "i"))));
        documents.put("a 10 MB symbol", raw(new BsonDocument("y", new BsonSymbol(huge))));
        documents.put("a 10 MB DBPointer", raw(new BsonDocument("p", new BsonDbPointer(huge, new ObjectId(1, 2)))));
        documents.put("10 MB of code with scope", raw(new BsonDocument("c", new BsonJavaScriptWithScope(huge,
                new BsonDocument("x", new BsonInt32(1))))));
        for (Map.Entry<String, RawBsonDocument> entry : documents.entrySet()) {
            double bytes = allocatedRendering(entry.getKey(), entry.getValue());
            assertTrue(bytes < 64 * 1024, entry.getKey() + ": allocated " + bytes + " bytes");
        }
    }

    @Test
    void spendsOnNestingOnlyWhatTheLimitShows() {
        // each level shown costs the reader's and the writer's contexts; levels past the limit cost nothing
        double deep = allocatedRendering("a 1000-level document", Documents.deep(1000));
        double deeper = allocatedRendering("a 20000-level document", Documents.deep(20_000));
        double arrays = allocatedRendering("1000 levels of arrays", Documents.deepArrays(1000));
        double moreArrays = allocatedRendering("20000 levels of arrays", Documents.deepArrays(20_000));
        assertTrue(deep < 64 * 1024, "1000 levels: " + deep);
        assertTrue(deeper < deep * 1.1, "20000 levels: " + deeper + " against " + deep);
        // arrays show one character per level, the worst case: about 1000 levels at the default limit
        assertTrue(arrays < 256 * 1024, "1000 levels of arrays: " + arrays);
        assertTrue(moreArrays < arrays * 1.1, "20000 levels of arrays: " + moreArrays + " against " + arrays);
    }

    /** @return the bytes allocated by one rendering at the default limit, checked against the driver's text first */
    private static double allocatedRendering(final String name, final RawBsonDocument document) {
        int levels = document.getByteBuffer().remaining(); // the driver's reader decodes recursively: only shallow ones
        if (levels < 10_000) {
            assertEquals(Json.driverLog(document, 1000), TruncatedJson.render(document, 1000), name);
        }
        double bytes = Allocations.perRun(10, () -> TruncatedJson.render(document, 1000));
        System.out.println("rendering " + name + " (" + document.getByteBuffer().remaining()
                + " bytes) at the default limit allocated " + (long) bytes + " bytes");
        return bytes;
    }
}

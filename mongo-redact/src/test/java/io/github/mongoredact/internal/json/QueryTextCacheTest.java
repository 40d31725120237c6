package io.github.mongoredact.internal.json;

import org.bson.BSONException;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The query texts of one kind of command: found again only for the same shown bytes, always what the render writes. */
class QueryTextCacheTest {
    private static final int MAX_LENGTH = 1000;

    @Test
    void givesTheSameTextWhenOnlyTheFieldsLeftOutDiffer() {
        QueryTextCache cache = new QueryTextCache(MAX_LENGTH);
        RawBsonDocument first = raw(insert("?string").append("$db", new BsonString("shop")).append("lsid", lsid())
                .append("$clusterTime", new BsonDocument("clusterTime", new BsonTimestamp(1, 1))));
        // another session, another cluster time, the session before the shown fields: the same text
        RawBsonDocument second = raw(new BsonDocument("lsid", lsid()).append("insert", new BsonString("customers"))
                .append("ordered", BsonBoolean.TRUE).append("documents", documents("?string")).append("$db", new BsonString("shop"))
                .append("$clusterTime", new BsonDocument("clusterTime", new BsonTimestamp(2, 7))));
        String text = cache.render(first);
        assertEquals(QueryText.render(first, MAX_LENGTH), text);
        assertEquals("{\"insert\": \"customers\", \"ordered\": true, \"documents\": [{\"name\": \"?string\"}]}", text);
        assertSame(text, cache.render(second));
    }

    @Test
    void rendersAgainWhenAShownByteDiffers() {
        QueryTextCache cache = new QueryTextCache(MAX_LENGTH);
        String ada = cache.render(raw(insert("ada")));
        RawBsonDocument bob = raw(insert("bob"));
        String text = cache.render(bob);
        assertEquals(QueryText.render(bob, MAX_LENGTH), text);
        assertNotSame(ada, text);
        // an extra shown field is another command too
        RawBsonDocument more = raw(insert("bob").append("comment", new BsonString("x")));
        assertEquals(QueryText.render(more, MAX_LENGTH), cache.render(more));
    }

    @Test
    void remembersTheLastTwoTexts() {
        QueryTextCache cache = new QueryTextCache(MAX_LENGTH);
        String a = cache.render(raw(insert("?a")));
        String b = cache.render(raw(insert("?b")));
        assertSame(a, cache.render(raw(insert("?a"))));
        assertSame(b, cache.render(raw(insert("?b"))));
        cache.render(raw(insert("?c")));
        assertNotSame(a, cache.render(raw(insert("?a"))), "the third text took the place of the first");
    }

    @Test
    void cutsAsTheRenderCuts() {
        QueryTextCache cache = new QueryTextCache(20);
        RawBsonDocument command = raw(insert("?string"));
        String text = cache.render(command);
        assertEquals(QueryText.render(command, 20), text);
        assertEquals("{\"insert\": \"customer ...", text);
        assertSame(text, cache.render(raw(insert("?string"))));
    }

    @Test
    void rendersCommandsOfMoreShownBytesThanTheMaximumEveryTime() {
        QueryTextCache cache = new QueryTextCache(0);
        String value = String.join("", Collections.nCopies(QueryTextCache.MAX_SHOWN_BYTES, "x"));
        String text = cache.render(raw(insert(value)));
        assertEquals(QueryText.render(raw(insert(value)), 0), text);
        assertNotSame(text, cache.render(raw(insert(value))));
    }

    @Test
    void stopsRememberingAKindWhoseTextsKeepDiffering() {
        QueryTextCache cache = new QueryTextCache(MAX_LENGTH);
        for (int i = 0; i < QueryTextCache.TRIAL - 1; i++) {
            cache.render(raw(insert("value " + i)));
        }
        assertEquals(QueryTextCache.ENTRIES, cache.remembered());
        cache.render(raw(insert("value " + QueryTextCache.TRIAL)));
        assertEquals(0, cache.remembered(), "the texts remembered (values, under this policy) were dropped");
        String text = cache.render(raw(insert("again")));
        assertEquals(QueryText.render(raw(insert("again")), MAX_LENGTH), text);
        assertNotSame(text, cache.render(raw(insert("again"))), "no text is remembered after the trial found none again");
    }

    @Test
    void keepsRememberingAKindWhoseTextsAreFoundAgain() {
        QueryTextCache cache = new QueryTextCache(MAX_LENGTH);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 4 * QueryTextCache.TRIAL; i++) {
            texts.add(cache.render(raw(insert(i % 4 == 0 ? "value " + i : "?string"))));
        }
        assertSame(texts.get(texts.size() - 1), cache.render(raw(insert("?string"))));
    }

    @Test
    void reportsBytesThatDoNotAddUpAsTheRenderDoes() {
        byte[] bytes = raw(insert("ada")).getByteBuffer().array().clone();
        // the length of the string "customers" (at 4 + 1 + "insert\0".length) said to run past the document
        bytes[4 + 1 + 7] = 0x7F;
        RawBsonDocument corrupt = new RawBsonDocument(bytes);
        QueryTextCache cache = new QueryTextCache(MAX_LENGTH);
        BSONException expected = assertThrows(BSONException.class, () -> QueryText.render(corrupt, MAX_LENGTH));
        BSONException thrown = assertThrows(BSONException.class, () -> cache.render(corrupt));
        assertEquals(expected.getMessage(), thrown.getMessage());
    }

    @Test
    void rendersADocumentWithoutBytes() {
        QueryTextCache cache = new QueryTextCache(MAX_LENGTH);
        BsonDocument command = insert("?string").append("txnNumber", new BsonInt64(3));
        assertEquals(QueryText.render(command, MAX_LENGTH), cache.render(command));
    }

    private static BsonDocument insert(final String name) {
        return new BsonDocument("insert", new BsonString("customers")).append("ordered", BsonBoolean.TRUE)
                .append("documents", documents(name));
    }

    private static BsonArray documents(final String name) {
        return new BsonArray(Collections.singletonList(new BsonDocument("name", new BsonString(name))));
    }

    private static BsonDocument lsid() {
        return new BsonDocument("id", new BsonBinary(UUID.randomUUID()));
    }

    private static RawBsonDocument raw(final BsonDocument document) {
        return new RawBsonDocument(document, new BsonDocumentCodec());
    }
}

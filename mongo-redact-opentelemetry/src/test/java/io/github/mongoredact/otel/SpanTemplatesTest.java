package io.github.mongoredact.otel;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ServerId;
import io.github.mongoredact.internal.json.QueryText;
import io.github.mongoredact.internal.json.QueryTextCache;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The span templates of each kind of command: one per server, database, collection and command name, of which only the
 * first {@link SpanTemplates#MAX_KINDS_REMEMBERING_TEXTS} remember query texts, so that an application with many collections
 * holds a bounded number of texts; the later kinds render every text, the same text. Past {@link SpanTemplates#MAX_KINDS}
 * kinds none is kept: a span of a later kind gets a template made for it alone, counted.
 */
class SpanTemplatesTest {
    private static final ServerId SERVER = new ServerId(new ClusterId(), new ServerAddress("localhost", 27017));

    @Test
    void onlyTheFirstKindsRememberQueryTextsAndTheLaterOnesRenderTheSameText() {
        SpanTemplates templates = new SpanTemplates(1000, SpanNaming.DRIVER_SPECIFICATION);
        int kinds = SpanTemplates.MAX_KINDS_REMEMBERING_TEXTS + 10;
        for (int i = 0; i < kinds; i++) {
            SpanTemplate template = templates.of(SERVER, "app", "tenant" + i, "find");
            QueryTextCache texts = template.queryTexts;
            assertNotNull(texts);
            assertEquals(i < SpanTemplates.MAX_KINDS_REMEMBERING_TEXTS, texts.remembers(), "kind " + i);
            // the same kind again: the same template, which neither takes nor frees a place among those that remember
            assertSame(template, templates.of(SERVER, "app", "tenant" + i, "find"));
        }
        SpanTemplate late = templates.of(SERVER, "app", "tenant" + (kinds - 1), "find");
        RawBsonDocument command = new RawBsonDocument(new BsonDocument("find", new BsonString("tenant" + (kinds - 1)))
                .append("filter", new BsonDocument("email", new BsonString("?string")))
                .append("$db", new BsonString("app")), new BsonDocumentCodec());
        QueryTextCache texts = late.queryTexts;
        assertNotNull(texts);
        for (int round = 0; round < 3; round++) {
            assertEquals(QueryText.render(command, 1000), texts.render(command));
        }
        assertFalse(texts.remembers());
    }

    @Test
    void kindsPastTheBoundGetTemplatesMadeForThemAloneAndCounted() {
        SpanTemplates templates = new SpanTemplates(1000, SpanNaming.DRIVER_SPECIFICATION);
        for (int i = 0; i < SpanTemplates.MAX_KINDS; i++) {
            templates.of(SERVER, "app", "day" + i, "insert");
        }
        assertEquals(SpanTemplates.MAX_KINDS, templates.kept());
        assertEquals(0, templates.notKept());
        for (int round = 1; round <= 3; round++) {
            SpanTemplate late = templates.of(SERVER, "app", "late", "insert");
            assertNotSame(late, templates.of(SERVER, "app", "late", "insert"), "not kept");
            assertEquals("late", late.attributes.get(SpanKeys.COLLECTION));
            assertEquals("insert app.late", late.attributes.get(SpanKeys.QUERY_SUMMARY));
            QueryTextCache texts = late.queryTexts;
            assertNotNull(texts);
            assertFalse(texts.remembers());
            assertEquals(2L * round, templates.notKept());
        }
        // a kind kept before the bound is still the same template, and no further kind was kept
        assertSame(templates.of(SERVER, "app", "day7", "insert"), templates.of(SERVER, "app", "day7", "insert"));
        assertEquals(SpanTemplates.MAX_KINDS, templates.kept());
        assertEquals(6, templates.notKept());
    }

    @Test
    void withTheTextOffNoKindHoldsACache() {
        SpanTemplates off = new SpanTemplates(0, SpanNaming.DRIVER_SPECIFICATION);
        for (int i = 0; i < 3; i++) {
            assertNull(off.of(SERVER, "app", "c" + i, "insert").queryTexts);
        }
        SpanTemplates on = new SpanTemplates(10, SpanNaming.DRIVER_SPECIFICATION);
        QueryTextCache texts = on.of(SERVER, "app", "c", "insert").queryTexts;
        assertNotNull(texts);
        assertTrue(texts.remembers());
    }
}

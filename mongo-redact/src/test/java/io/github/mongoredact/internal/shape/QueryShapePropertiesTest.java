package io.github.mongoredact.internal.shape;

import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The properties a query shape has by definition: literals of one type share a shape, another type makes another; the fields
 * that are not part of a shape change nothing; the pinned hash of the server's find template.
 */
class QueryShapePropertiesTest {
    private static final String FIND = "{find: 'orders', filter: %s, '$db': 'shop'}";

    private final QueryShaper shaper = new QueryShaper();

    private QueryShape shape(final String json) {
        QueryShape shape = Commands.shape(shaper, json);
        assertNotNull(shape, json + ": " + shaper.refusal());
        return shape;
    }

    /**
     * {@code find_cmd_shape_test.cpp::FindCmdShapeTest.FindCommandShapeSHA256Hash}: "the hash must not change over versions".
     * The test builds its request without the find command parser (no {@code $recordId} projection for {@code showRecordId}),
     * so the unit-test request mode reproduces it; as a command the driver sends, the engine gives no shape for it.
     */
    @Test
    void findTemplateHashIsThePinnedOne() {
        String template = "{find: 'testColl', filter: {a: 1}, sort: {b: 1}, projection: {c: 1}, collation: {locale: 'en_US'},"
                + " min: {d: 1}, max: {d: 9}, let: {e: 1}, singleBatch: false, allowDiskUse: true, returnKey: true,"
                + " showRecordId: true, mirrored: true, oplogReplay: true, limit: 1, skip: 1, '$db': 'testDB'}";
        QueryShape shape = Commands.shape(new QueryShaper(true), template);
        assertNotNull(shape);
        assertEquals("5B498C8F35D92BCDD67A5192F37FFAACF2CA0BA49C68219C2088DE13F2BB2FFF", shape.hashHex());
        assertEquals("8.0", shape.hashSinceServerVersion());
        assertNull(Commands.shape(shaper, template));
        assertTrue(shaper.refusal().contains("showRecordId"), shaper.refusal());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{a: 1}|{a: 2}",
        "{a: 1}|{a: 2.5}",
        "{a: 1}|{a: {$numberLong: '7'}}",
        "{a: 'x'}|{a: 'a longer string'}",
        "{a: {$date: '2026-01-01T00:00:00Z'}}|{a: {$date: '1999-12-31T23:59:59Z'}}",
        "{a: {$oid: '6b0dd09aa86bc4d263d28547'}}|{a: {$oid: '000000000000000000000001'}}",
        "{a: [1, 2]}|{a: [7, 8, 9]}",
        "{a: {$in: [1, 2, 3]}}|{a: {$in: [7]}}",
        "{a: {$in: [1, 'x', 2.5]}}|{a: {$in: ['y', 3]}}",
        "{a: {$gt: 1, $lt: 10}}|{a: {$gt: -5, $lt: 1000}}",
        "{a: {$regex: '^ab'}}|{a: {$regex: 'z+'}}",
        "{a: {$regex: '^ab', $options: 'i'}}|{a: {$regex: 'z+', $options: 'mx'}}",
        "{a: {$exists: true}}|{a: {$exists: 1}}",
        "{a: {$size: 1}}|{a: {$size: 40}}",
        "{a: {$mod: [2, 0]}}|{a: {$mod: [10, 3]}}",
        "{a: {$bitsAllSet: 5}}|{a: {$bitsAllSet: [0, 4, 9]}}",
        "{$or: [{a: 1}, {b: 'x'}]}|{$or: [{a: 99}, {b: 'y'}]}",
        "{a: {$elemMatch: {b: 1, c: {$ne: null}}}}|{a: {$elemMatch: {b: 2, c: {$ne: null}}}}",
        "{$expr: {$eq: ['$a', 1]}}|{$expr: {$eq: ['$a', 17]}}",
        "{$expr: {$add: [1, 2]}}|{$expr: {$add: [3, 4]}}"})
    void literalsOfOneTypeShareTheShape(final String filter, final String other) {
        QueryShape one = shape(String.format(FIND, filter));
        QueryShape two = shape(String.format(FIND, other));
        assertEquals(one.hashHex(), two.hashHex(), filter + " / " + other);
        assertEquals(one.debugShapeJson(), two.debugShapeJson());
        assertEquals(one, two);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{a: 1}|{a: '1'}",
        "{a: 1}|{a: true}",
        "{a: 1}|{a: null}",
        "{a: [1, 2]}|{a: [1, 2.5]}",
        "{a: [1, 2]}|{a: []}",
        "{a: [1, 2]}|{a: ['x']}",
        "{a: {$in: [1, 2]}}|{a: {$in: [1, 'x']}}",
        "{a: {$in: [1]}}|{a: {$in: []}}",
        "{a: {$regex: 'x'}}|{a: {$regex: 'x', $options: 'i'}}",
        "{a: {$exists: true}}|{a: {$exists: false}}",
        "{a: {$bitsAllSet: 5}}|{a: {$bitsAllSet: 0}}",
        "{a: 1}|{b: 1}",
        "{a: 1, b: 1}|{b: 1, a: 1}",
        "{$expr: {$add: [1, 2]}}|{$expr: {$add: [1, 'x']}}"})
    void anotherTypeOrStructureChangesTheShape(final String filter, final String other) {
        QueryShape one = shape(String.format(FIND, filter));
        QueryShape two = shape(String.format(FIND, other));
        assertNotEquals(one.hashHex(), two.hashHex(), filter + " / " + other);
        assertNotEquals(one.debugShapeJson(), two.debugShapeJson());
    }

    /**
     * A variadic expression of constants is one array constant in the debug shape ({@code ?array<?number>} or, for an Int32 and
     * a Double, {@code ?array<>}) but one {@code {$const: 1}} per operand in the representative shape: the debug shapes differ,
     * the hashes do not (the server hashes the representative shape).
     */
    @Test
    void variadicConstantsDifferInTheDebugShapeOnly() {
        QueryShape ints = shape(String.format(FIND, "{$expr: {$add: [1, 2]}}"));
        QueryShape mixed = shape(String.format(FIND, "{$expr: {$add: [1, 2.5]}}"));
        assertTrue(ints.debugShapeJson().contains("\"$add\": \"?array<?number>\""), ints.debugShapeJson());
        assertTrue(mixed.debugShapeJson().contains("\"$add\": \"?array<>\""), mixed.debugShapeJson());
        assertEquals(ints.hashHex(), mixed.hashHex());
        assertNotEquals(ints, mixed);
    }

    @ParameterizedTest
    @ValueSource(strings = {"comment: 'who asked'", "maxTimeMS: 500", "batchSize: 2", "hint: {a: 1}", "hint: 'a_1'",
        "readConcern: {level: 'majority'}", "'$readPreference': {mode: 'secondaryPreferred'}",
        "lsid: {id: {$binary: {base64: 'AAAAAAAAAAAAAAAAAAAAAA==', subType: '04'}}}",
        "'$clusterTime': {clusterTime: {$timestamp: {t: 1, i: 1}}}", "txnNumber: {$numberLong: '3'}",
        "apiVersion: '1'", "noCursorTimeout: true", "allowPartialResults: true"})
    void fieldsOutsideTheShapeChangeNothing(final String field) {
        QueryShape plain = shape("{find: 'orders', filter: {a: 1}, sort: {b: -1}, limit: 5, '$db': 'shop'}");
        QueryShape with = shape("{find: 'orders', filter: {a: 1}, sort: {b: -1}, limit: 5, " + field + ", '$db': 'shop'}");
        assertEquals(plain, with, field);
        assertEquals(plain.hashHex(), with.hashHex(), field);
    }

    @ParameterizedTest
    @ValueSource(strings = {"comment: 'x'", "maxTimeMS: 5", "hint: {a: 1}", "readConcern: {level: 'local'}",
        "'$readPreference': {mode: 'primary'}", "bypassDocumentValidation: true", "writeConcern: {w: 1}"})
    void aggregateFieldsOutsideTheShapeChangeNothing(final String field) {
        String base = "{aggregate: 'orders', pipeline: [{$match: {a: 1}}], cursor: {batchSize: 5}, '$db': 'shop'";
        assertEquals(shape(base + "}"), shape(base + ", " + field + "}"), field);
    }

    @Test
    void aZeroLimitOrSkipIsNone() {
        QueryShape none = shape("{find: 'c', filter: {a: 1}, '$db': 'd'}");
        assertEquals(none, shape("{find: 'c', filter: {a: 1}, limit: 0, skip: 0, '$db': 'd'}"));
        assertNotEquals(none, shape("{find: 'c', filter: {a: 1}, limit: 1, '$db': 'd'}"));
    }

    @Test
    void letEmptyAndAbsentHashAlikeForFindButNotTheirShapes() {
        QueryShape absent = shape("{find: 'c', filter: {a: 1}, '$db': 'd'}");
        QueryShape empty = shape("{find: 'c', filter: {a: 1}, let: {}, '$db': 'd'}");
        assertEquals(absent.hashHex(), empty.hashHex());
        assertNotEquals(absent.debugShapeJson(), empty.debugShapeJson());
    }

    @Test
    void jsonAndBsonAreTheSameDocument() {
        QueryShape shape = shape("{find: 'c', filter: {a: {$in: [1, 'x']}, d: {$date: '2026-01-01T00:00:00Z'}}, '$db': 'd'}");
        BsonDocument parsed = BsonDocument.parse(shape.debugShapeJson());
        assertArrayEquals(shape.debugShapeBson(), Commands.bytes(parsed));
        assertTrue(shape.hashHex().matches("[0-9A-F]{64}"));
    }

    @Test
    void theCommandMayLieAnywhereInTheArray() {
        byte[] command = Commands.bytes("{find: 'c', filter: {a: 1}, '$db': 'd'}");
        byte[] padded = new byte[command.length + 20];
        System.arraycopy(command, 0, padded, 7, command.length);
        Arrays.fill(padded, command.length + 7, padded.length, (byte) 0x55);
        assertEquals(shaper.shape(command, 0, command.length), shaper.shape(padded, 7, 7 + command.length));
    }

    @Test
    void countHashesAreThoseOf81() {
        QueryShape count = shape("{count: 'c', query: {a: 1}, '$db': 'd'}");
        assertEquals("8.1", count.hashSinceServerVersion());
        assertEquals("count", count.commandName());
        assertEquals("8.0", shape("{distinct: 'c', key: 'k', '$db': 'd'}").hashSinceServerVersion());
    }
}

package io.github.mongoredact.internal.shape;

import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The corpus of server test expectations ({@code query-shape/corpus.json}; each case cites the server test it comes from): the
 * debug shape, the representative shape, the pinned hash ({@code expectedHash}, 11 of them) and the hash derived with the
 * reproduced layouts ({@code derivedHash}). Cases marked {@code derived} hold parts derived rather than copied (identifiers
 * un-hashed, representative forms); their test names say so.
 *
 * <p>A few cases are ones the engine answers "no shape" for, each for a stated reason (a server unit test that builds its
 * request without the find parser; a UUID target; a stage or operator not reproduced): those assert the refusal, and where the
 * case is a unit-test request, the shape of {@link QueryShaper#QueryShaper(boolean) the unit-test mode}.</p>
 */
class QueryShapeCorpusTest {
    /** Cases given no shape on purpose: id, what the refusal says. */
    private static final Map<String, String> REFUSED = Map.of(
            "find-pinned-template-hash", "showRecordId",
            "find-with-flags", "showRecordId",
            "distinct-pinned-uuid", "UUID",
            "agg-collectionless-querySettings", "unsupported stage $querySettings",
            "filter-where", "unsupported top-level operator $where");

    private static final String OPTIONS = "__options__";

    private final QueryShaper shaper = new QueryShaper();
    private final QueryShaper unitTestShaper = new QueryShaper(true);

    static List<BsonDocument> cases() {
        try (InputStream in = QueryShapeCorpusTest.class.getClassLoader().getResourceAsStream("query-shape/corpus.json")) {
            assertNotNull(in, "query-shape/corpus.json");
            // the driver's JSON reader takes {"$regex": ..., "$options": ...} for a regex value: hidden from it, then restored
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\"$options\"", "\"" + OPTIONS + "\"");
            BsonDocument corpus = BsonDocument.parse(text);
            List<BsonDocument> cases = new ArrayList<>();
            for (BsonValue value : corpus.getArray("cases")) {
                cases.add(restoreOptions(value).asDocument());
            }
            return cases;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @TestFactory
    List<DynamicTest> corpus() {
        List<DynamicTest> tests = new ArrayList<>();
        for (BsonDocument c : cases()) {
            String id = c.getString("id").getValue();
            boolean derived = c.getBoolean("derived").getValue();
            String name = id + (derived ? " [derived]" : " [server]") + " <- " + c.getString("source").getValue();
            tests.add(DynamicTest.dynamicTest(name, () -> check(c)));
        }
        return tests;
    }

    @Test
    void coversEnoughCasesOfEachCommand() {
        Map<String, Integer> shaped = new java.util.TreeMap<>();
        for (BsonDocument c : cases()) {
            if (!REFUSED.containsKey(c.getString("id").getValue())) {
                shaped.merge(c.getString("commandType").getValue(), 1, Integer::sum);
            }
        }
        assertEquals(4, shaped.size(), shaped.toString());
        assertTrue(shaped.values().stream().mapToInt(Integer::intValue).sum() >= 90, shaped.toString());
    }

    private void check(final BsonDocument c) {
        String id = c.getString("id").getValue();
        byte[] command = Commands.bytes(c.getDocument("command"));
        QueryShape shape = shaper.shape(command, 0, command.length);
        String reason = REFUSED.get(id);
        if (reason != null) {
            assertNull(shape, id + " must give no shape");
            assertTrue(shaper.refusal().contains(reason), id + ": " + shaper.refusal());
            shape = unitTestShaper.shape(command, 0, command.length);
            if (!id.startsWith("find-") && !id.equals("distinct-pinned-uuid")) {
                assertNull(shape, id);
                return;
            }
        }
        assertNotNull(shape, id + ": " + shaper.refusal());
        String scope = c.containsKey("shapeScope") ? c.getString("shapeScope").getValue() : "";
        if (c.containsKey("expectedDebugShape")) {
            assertSame(c.getDocument("expectedDebugShape"), part(Commands.document(shape.debugShapeBson()), scope), id + " debug");
            if (scope.isEmpty()) {
                assertEquals(c.getDocument("expectedDebugShape").toJson(Commands.RELAXED), shape.debugShapeJson(), id + " json");
            }
        }
        if (c.containsKey("expectedRepresentativeShape")) {
            assertSame(c.getDocument("expectedRepresentativeShape"),
                    part(Commands.document(shape.representativeShapeBson()), scope), id + " representative");
        }
        String hash = c.containsKey("expectedHash") ? c.getString("expectedHash").getValue()
                : c.containsKey("derivedHash") ? c.getString("derivedHash").getValue() : null;
        if (hash != null) {
            assertEquals(hash, shape.hashHex(), id + (c.containsKey("expectedHash") ? " pinned hash" : " derived hash"));
        }
    }

    private static BsonValue restoreOptions(final BsonValue value) {
        if (value.isArray()) {
            org.bson.BsonArray array = new org.bson.BsonArray();
            value.asArray().forEach(element -> array.add(restoreOptions(element)));
            return array;
        }
        if (!value.isDocument()) {
            return value;
        }
        BsonDocument document = new BsonDocument();
        value.asDocument().forEach((key, element) -> document.put(key.equals(OPTIONS) ? "$options" : key, restoreOptions(element)));
        return document;
    }

    /** The part of a shape a case's scope names: the whole shape, its filter, its sort, its first stage. */
    private static BsonDocument part(final BsonDocument shape, final String scope) {
        if (scope.startsWith("filter")) {
            return shape.getDocument("filter");
        }
        if (scope.startsWith("sort")) {
            // no sort in the shape is the empty document in the hash
            return new BsonDocument("sort", shape.containsKey("sort") ? shape.getDocument("sort") : new BsonDocument());
        }
        if (scope.startsWith("stage")) {
            return shape.getArray("pipeline").get(0).asDocument();
        }
        return shape;
    }

    /** Compares two documents byte for byte (field order and types included). */
    private static void assertSame(final BsonDocument expected, final BsonDocument actual, final String message) {
        assertEquals(expected.toJson(Commands.RELAXED), actual.toJson(Commands.RELAXED), message);
        byte[] expectedBytes = Commands.bytes(expected);
        byte[] actualBytes = Commands.bytes(actual);
        assertTrue(java.util.Arrays.equals(expectedBytes, actualBytes), message + ": the same JSON, other BSON types");
    }
}

package io.github.mongoredact.internal.shape;

import org.bson.BsonDocument;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The privacy hook: a corpus command and its copy redacted by hand as {@code RedactionPolicy.defaults()} writes one (values
 * become typed placeholders, keys, collection, {@code $db}, sort directions, projection flags and {@code limit} stay) shape alike
 * in placeholder mode, so the integration may emit the shape; where the copy can not tell what the shape needs, placeholder
 * mode gives no shape at all (and the integration emits nothing).
 */
class RedactedCopyTest {
    private final QueryShaper shaper = new QueryShaper();

    static Stream<Arguments> corpusCommandsAndTheirCopies() {
        return Stream.of(
            Arguments.of("find-basic-eq",
                    "{find: 'testColl', filter: {a: 1}, '$db': 'testDB'}",
                    "{find: 'testColl', filter: {a: '?number'}, '$db': 'testDB'}"),
            Arguments.of("find-with-projection",
                    "{find: 'testColl', filter: {a: 1}, sort: {sortVal: 1, otherSort: -1}, projection: {e: true, "
                    + "f: true}, '$db': 'testDB'}",
                    "{find: 'testColl', filter: {a: '?number'}, sort: {sortVal: 1, otherSort: -1}, "
                    + "projection: {e: true, f: true}, '$db': 'testDB'}"),
            Arguments.of("find-hint-min-max-plain",
                    "{find: 'testColl', filter: {b: 1}, hint: {z: 1, c: 1}, max: {z: 25}, min: {z: 80}, "
                    + "'$db': 'testDB'}",
                    "{find: 'testColl', filter: {b: '?number'}, hint: {z: 1, c: 1}, max: {z: '?number'}, "
                    + "min: {z: '?number'}, '$db': 'testDB'}"),
            Arguments.of("find-with-limit-skip",
                    "{find: 'testColl', filter: {a: 1}, limit: 5, skip: 2, batchSize: 25, maxTimeMS: 1000, "
                    + "noCursorTimeout: false, comment: 'hi', '$db': 'testDB'}",
                    "{find: 'testColl', filter: {a: '?number'}, limit: 5, skip: 2, batchSize: 25, maxTimeMS: 1000, "
                    + "noCursorTimeout: false, comment: '?string', '$db': 'testDB'}"),
            Arguments.of("find-tailable-natural",
                    "{find: 'testColl', tailable: true, awaitData: true, sort: {$natural: 1}, '$db': 'testDB'}",
                    "{find: 'testColl', tailable: true, awaitData: true, sort: {$natural: 1}, '$db': 'testDB'}"),
            Arguments.of("find-bool-eq",
                    "{find: 'coll', filter: {evil: true}, '$db': 'test'}",
                    "{find: 'coll', filter: {evil: '?bool'}, '$db': 'test'}"),
            Arguments.of("find-tokenization-range",
                    "{find: 'test', filter: {v: {$gt: 0, $lt: 3}}, batchSize: 1, '$db': 'test'}",
                    "{find: 'test', filter: {v: {$gt: '?number', $lt: '?number'}}, batchSize: 1, '$db': 'test'}"),
            Arguments.of("find-regex-string-no-options",
                    "{find: 'coll', filter: {foo: {$regex: '/^ABC/i'}}, '$db': 'test'}",
                    "{find: 'coll', filter: {foo: {$regex: '?string'}}, '$db': 'test'}"),
            Arguments.of("find-dates-ids",
                    "{find: 'c', filter: {d: {$gte: {$date: '2026-01-01T00:00:00Z'}}, "
                    + "o: {$oid: '6b0dd09aa86bc4d263d28547'}, n: null}, '$db': 'd'}",
                    "{find: 'c', filter: {d: {$gte: '?date'}, o: '?objectId', n: '?null'}, '$db': 'd'}"),
            Arguments.of("filter-in-numbers",
                    "{find: 'testColl', filter: {a: {$in: [1]}}, '$db': 'testDB'}",
                    "{find: 'testColl', filter: {a: {$in: ['?number']}}, '$db': 'testDB'}"),
            Arguments.of("filter-in-mixed",
                    "{find: 'testColl', filter: {a: {$in: [1, 4, 'str', {$regularExpression: {pattern: 'regex', "
                    + "options: ''}}]}}, '$db': 'testDB'}",
                    "{find: 'testColl', filter: {a: {$in: ['?number', '?number', '?string', '?regex']}}, "
                    + "'$db': 'testDB'}"),
            Arguments.of("filter-in-many-numbers",
                    "{find: 'c', filter: {a: {$in: [1, 2.5, {$numberLong: '3'}]}}, '$db': 'd'}",
                    "{find: 'c', filter: {a: {$in: ['?number', '?number', '?number']}}, '$db': 'd'}"),
            Arguments.of("filter-array-eq-6",
                    "{find: 'testColl', filter: {a: [[2, 3], ['string'], []]}, '$db': 'testDB'}",
                    "{find: 'testColl', filter: {a: [['?number', '?number'], ['?string'], []]}, '$db': 'testDB'}"),
            Arguments.of("filter-array-eq-1",
                    "{find: 'testColl', filter: {a: [2]}, '$db': 'testDB'}",
                    "{find: 'testColl', filter: {a: ['?number']}, '$db': 'testDB'}"),
            Arguments.of("filter-mod",
                    "{find: 'testColl', filter: {a: {$mod: [2, 0]}}, '$db': 'testDB'}",
                    "{find: 'testColl', filter: {a: {$mod: ['?number', '?number']}}, '$db': 'testDB'}"),
            Arguments.of("filter-bits-array",
                    "{find: 'testColl', filter: {a: {$bitsAllSet: [1, 5]}}, '$db': 'testDB'}",
                    "{find: 'testColl', filter: {a: {$bitsAllSet: ['?number', '?number']}}, '$db': 'testDB'}"),
            Arguments.of("filter-elemMatch-value",
                    "{find: 'testColl', filter: {a: {$elemMatch: {$gt: 5, $lt: 10}}}, '$db': 'testDB'}",
                    "{find: 'testColl', filter: {a: {$elemMatch: {$gt: '?number', $lt: '?number'}}}, "
                    + "'$db': 'testDB'}"),
            Arguments.of("filter-not",
                    "{find: 'testColl', filter: {price: {$not: {$gt: 1.99}}}, '$db': 'testDB'}",
                    "{find: 'testColl', filter: {price: {$not: {$gt: '?number'}}}, '$db': 'testDB'}"),
            Arguments.of("filter-or",
                    "{find: 'testColl', filter: {$or: [{a: 5}, {b: {$in: [1, 2, 3]}}, {c: {$gt: 10}}]}, "
                    + "'$db': 'testDB'}",
                    "{find: 'testColl', filter: {$or: [{a: '?number'}, {b: {$in: ['?number', '?number', "
                    + "'?number']}}, {c: {$gt: '?number'}}]}, '$db': 'testDB'}"),
            Arguments.of("filter-size",
                    "{find: 'testColl', filter: {price: {$size: 2}}, '$db': 'testDB'}",
                    "{find: 'testColl', filter: {price: {$size: '?number'}}, '$db': 'testDB'}"),
            Arguments.of("filter-exists-string",
                    "{find: 'c', filter: {a: {$exists: 'yes'}}, '$db': 'd'}",
                    "{find: 'c', filter: {a: {$exists: '?string'}}, '$db': 'd'}"),
            Arguments.of("count-shape-debug-all-no-collation",
                    "{count: 'testcoll', query: {a: 'y', b: 42}, limit: 50, skip: 50, '$db': 'testdb'}",
                    "{count: 'testcoll', query: {a: '?string', b: '?number'}, limit: 50, skip: 50, '$db': 'testdb'}"),
            Arguments.of("distinct-shape-query",
                    "{distinct: 'testcoll', key: 'name', query: {e1: 'y', e2: 5}, '$db': 'testdb'}",
                    "{distinct: 'testcoll', key: 'name', query: {e1: '?string', e2: '?number'}, '$db': 'testdb'}"),
            Arguments.of("agg-basic-match-group (paths kept)",
                    "{aggregate: 'testColl', pipeline: [{$match: {x: 3, y: {$lte: 3}}}, {$group: {_id: '$y', "
                    + "z: {$max: '$z'}, w: {$avg: '$w'}}}], cursor: {}, '$db': 'testDB'}",
                    "{aggregate: 'testColl', pipeline: [{$match: {x: '?number', y: {$lte: '?number'}}}, "
                    + "{$group: {_id: '$y', z: {$max: '$z'}, w: {$avg: '$w'}}}], cursor: {}, '$db': 'testDB'}"),
            Arguments.of("agg-limit-skip-sum",
                    "{aggregate: 'c', pipeline: [{$limit: 10}, {$skip: 2}, {$group: {_id: null, n: {$sum: 1}}}], "
                    + "cursor: {}, '$db': 'd'}",
                    "{aggregate: 'c', pipeline: [{$limit: '?number'}, {$skip: '?number'}, {$group: {_id: '?null', "
                    + "n: {$sum: '?number'}}}], cursor: {}, '$db': 'd'}"),
            Arguments.of("agg-unionWith-sort (names kept)",
                    "{aggregate: 'testColl', pipeline: [{$unionWith: {coll: 'otherColl', "
                    + "pipeline: [{$match: {val: 'foo'}}]}}, {$sort: {age: 1}}], cursor: {}, '$db': 'testDB'}",
                    "{aggregate: 'testColl', pipeline: [{$unionWith: {coll: 'otherColl', "
                    + "pipeline: [{$match: {val: '?string'}}]}}, {$sort: {age: 1}}], cursor: {}, '$db': 'testDB'}"),
            Arguments.of("let-number",
                    "{find: 'c', filter: {$expr: {$gt: ['$a', '$$x']}}, let: {x: 5}, '$db': 'd'}",
                    "{find: 'c', filter: {$expr: {$gt: ['$a', '$$x']}}, let: {x: '?number'}, '$db': 'd'}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpusCommandsAndTheirCopies")
    void aRedactedCopyShapesAsTheCommand(final String id, final String command, final String redacted) {
        QueryShape original = Commands.shape(shaper, command);
        assertNotNull(original, id + ": " + shaper.refusal());
        QueryShape copy = Commands.shapeRedacted(shaper, redacted);
        assertNotNull(copy, id + " redacted: " + shaper.refusal());
        assertEquals(original, copy, id);
        assertEquals(original.hashHex(), copy.hashHex(), id);
    }

    /** find-regex-with-options: whether the redacted options were empty can not be told (built by hand: the driver's JSON reader
     * takes {@code {$regex, $options}} for a regex value). */
    @Test
    void redactedRegexOptionsGiveNoShape() {
        BsonDocument command = new BsonDocument("find", new BsonString("coll"))
                .append("filter", new BsonDocument("foo", new BsonDocument("$regex", new BsonString("?string"))
                        .append("$options", new BsonString("?string"))))
                .append("$db", new BsonString("test"));
        byte[] bytes = Commands.bytes(command);
        assertNull(shaper.shapeRedacted(bytes, 0, bytes.length));
        assertTrue(shaper.refusal().contains("$options"), shaper.refusal());
        command.getDocument("filter").getDocument("foo").remove("$options");
        bytes = Commands.bytes(command);
        assertNotNull(shaper.shapeRedacted(bytes, 0, bytes.length), shaper.refusal());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "filter-array-eq-2: one number type or two?|{find: 'testColl', filter: {a: ['?number', '?number']}, "
            + "'$db': 'testDB'}|array of redacted numbers",
        "filter-exists: true or false?|{find: 'testColl', filter: {a: {$exists: '?bool'}}, '$db': 'testDB'}|$exists",
        "filter-bits-mask: zero or not?|{find: 'testColl', filter: {a: {$bitsAllSet: '?number'}}, '$db': 'testDB'}|bit mask",
        "fixed placeholder|{find: 'c', filter: {a: '?'}, '$db': 'd'}|no known type",
        "redacted array literal|{find: 'c', filter: {a: '?array'}, '$db': 'd'}|redacted array",
        "redacted object equality|{find: 'c', filter: {a: '?object'}, '$db': 'd'}|operators or options",
        "find-with-let: a path or a constant?|{find: 'c', filter: {a: 1}, let: {v: '?string'}, '$db': 'd'}|can not be told",
        "limit: zero or not?|{find: 'c', filter: {a: 1}, limit: '?number', '$db': 'd'}|limit",
        "sort direction|{find: 'c', sort: {a: '?number'}, '$db': 'd'}|sort direction",
        "projection flag|{find: 'c', projection: {a: '?number'}, '$db': 'd'}|projection flag",
        "count-pinned-all: collation kept verbatim|{count: 'testcoll', query: {area: '?number'}, "
            + "collation: {locale: '?string'}, '$db': 'testdb'}|redacted value",
        "agg-lookup-match-count: $count name|{aggregate: 'coll', pipeline: [{$count: '?string'}], "
            + "cursor: {}, '$db': 'test'}|redacted value",
        "$group path redacted|{aggregate: 'c', pipeline: [{$group: {_id: '?string'}}], cursor: {}, '$db': 'd'}|can not be told"})
    void aCopyThatCanNotTellGivesNoShape(final String id, final String redacted, final String reason) {
        assertNull(Commands.shapeRedacted(shaper, redacted), id);
        assertTrue(shaper.refusal().contains(reason), id + ": " + shaper.refusal());
    }
}

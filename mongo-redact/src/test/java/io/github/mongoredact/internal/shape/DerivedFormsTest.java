package io.github.mongoredact.internal.shape;

import org.bson.BsonDocument;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Forms beyond the corpus, derived from the server sources the classes cite (not pinned by a server test): each case names the
 * source it follows. The debug part shown ({@code filter} or {@code projection}) is compared as JSON, field order included.
 */
class DerivedFormsTest {
    private final QueryShaper shaper = new QueryShaper();

    static Stream<Arguments> forms() {
        return Stream.of(
            // NotMatchExpression::serialize: one path operator keeps $not; several become $nor of their $and
            form("filter", "{a: {$ne: 5}}", "{a: {$not: {$eq: '?number'}}}", "expression_tree.cpp"),
            form("filter", "{a: {$nin: [1, 'x']}}", "{a: {$not: {$in: '?array<>'}}}", "expression_tree.cpp"),
            form("filter", "{a: {$exists: false}}", "{a: {$not: {$exists: '?bool'}}}", "expression_parser.cpp ($exists)"),
            form("filter", "{a: {$not: {$gt: 1, $lt: 5}}}",
                    "{$nor: [{$and: [{a: {$gt: '?number'}}, {a: {$lt: '?number'}}]}]}", "expression_tree.cpp"),
            form("filter", "{a: {$elemMatch: {$ne: 3}}}", "{a: {$elemMatch: {$not: {$eq: '?number'}}}}",
                    "expression_tree.cpp (no path)"),
            // parseAll: an $and of equalities, not flattened; [] is $alwaysFalse
            form("filter", "{a: {$all: [1, 'x']}, b: 1}",
                    "{$and: [{$and: [{a: {$eq: '?number'}}, {a: {$eq: '?string'}}]}, {b: {$eq: '?number'}}]}",
                    "expression_parser.cpp (parseAll)"),
            form("filter", "{a: {$all: []}}", "{$alwaysFalse: '?number'}", "expression_parser.cpp (parseAll)"),
            // parse: a single predicate stands alone; an explicit $and of one is kept; $comment adds nothing
            form("filter", "{$and: [{a: 1}]}", "{$and: [{a: {$eq: '?number'}}]}", "expression_parser.cpp (parse)"),
            form("filter", "{$comment: 'x', a: 1}", "{a: {$eq: '?number'}}", "expression_parser.cpp (parseComment)"),
            form("filter", "{$or: [{}, {a: 1}]}", "{$or: [{}, {a: {$eq: '?number'}}]}", "expression_tree.cpp (empty $and)"),
            // InMatchExpression::serializeToShape: first of each canonical type, one regex if any
            form("filter", "{a: {$in: [{$regularExpression: {pattern: 'x', options: 'i'}}]}}", "{a: {$in: '?array<?regex>'}}",
                    "expression_leaf.cpp"),
            form("filter", "{a: {$in: ['x', {$symbol: 'y'}]}}", "{a: {$in: '?array<?string>'}}", "in_list_data.cpp"),
            form("filter", "{a: {$type: ['string', 'number', 1]}}", "{a: {$type: ['number', 1, 2]}}", "matcher_type_set.cpp"),
            form("filter", "{a: {$bitsAnySet: {$binary: {base64: 'AAA=', subType: '00'}}}}", "{a: {$bitsAnySet: '[]'}}",
                    "expression_leaf.cpp (bit positions)"),
            // ExpressionArray/ExpressionObject of constants are one constant; $$CURRENT.a is $a
            form("filter", "{$expr: {$in: ['$$CURRENT.a', [1, 2]]}}", "{$expr: {$in: ['$a', '?array<?number>']}}",
                    "expression.cpp"),
            form("filter", "{$expr: {$eq: ['$a', {x: 1, y: 'z'}]}}", "{$expr: {$eq: ['$a', '?object']}}", "expression.cpp"),
            // projection_parser.cpp: the AST keeps the order first seen; an exclusion drops _id: 1
            form("projection", "{_id: 0, a: 1}", "{_id: false, a: true}", "projection_parser.cpp"),
            form("projection", "{a: 0, _id: 1}", "{a: false}", "projection_parser.cpp"),
            form("projection", "{'a.b': 1, c: 1, 'a.d': 1}", "{a: {b: true, d: true}, c: true, _id: true}",
                    "projection_parser.cpp (addNodeAtPath)"),
            form("projection", "{s: {$meta: 'textScore'}}", "{s: {$meta: 'textScore'}}", "projection_parser.cpp (type)"),
            form("projection", "{_id: 1, s: {$meta: 'textScore'}}", "{_id: true, s: {$meta: 'textScore'}}",
                    "projection_parser.cpp (type)"),
            form("projection", "{a: {$slice: [1, 2]}, b: 1}", "{a: {$slice: ['?number', '?number']}, b: true, _id: true}",
                    "projection_ast_util.cpp"));
    }

    private static Arguments form(final String part, final String input, final String expected, final String source) {
        return Arguments.of(part, input, expected, source);
    }

    @ParameterizedTest(name = "{0} {1} [derived from {3}]")
    @MethodSource("forms")
    void derivedForm(final String part, final String input, final String expected, final String source) {
        QueryShape shape = Commands.shape(shaper, "{find: 'c', " + part + ": " + input + ", '$db': 'd'}");
        assertNotNull(shape, shaper.refusal());
        BsonDocument debug = BsonDocument.parse(shape.debugShapeJson());
        assertEquals(BsonDocument.parse(expected).toJson(Commands.RELAXED), debug.getDocument(part).toJson(Commands.RELAXED),
                input + " [" + source + "]");
    }
}

package io.github.mongoredact.internal.shape;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What gives no shape, and why: commands 8.0 computes no hash for, forms the engine does not reproduce, malformed input. Never
 * an exception: bad bytes are an answer ("no shape"), not a failure.
 */
class NoShapeTest {
    private final QueryShaper shaper = new QueryShaper();

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "{find: 'c', filter: {a: 1}, '$db': 'admin'}|internal database",
        "{find: 'c', filter: {a: 1}, '$db': 'config'}|internal database",
        "{aggregate: 'c', pipeline: [], cursor: {}, '$db': 'local'}|internal database",
        "{find: 'system.profile', filter: {a: 1}, '$db': 'd'}|system collection",
        "{distinct: 'system.views', key: 'a', '$db': 'd'}|system collection",
        "{find: 'c', filter: {_id: 5}, '$db': 'd'}|IDHACK",
        "{find: 'c', filter: {_id: {a: 1}}, projection: {a: 1}, limit: 1, '$db': 'd'}|IDHACK",
        "{find: 'c', filter: {_id: 'x'}, skip: 0, '$db': 'd'}|IDHACK",
        "{find: 'c', filter: {a: 1}, encryptionInformation: {schema: {}}, '$db': 'd'}|encryptionInformation",
        "{aggregate: 'c', pipeline: [], cursor: {}, querySettings: {}, '$db': 'd'}|querySettings",
        "{aggregate: 'c', pipeline: [], explain: true, '$db': 'd'}|explain",
        "{explain: {find: 'c', filter: {a: 1}}, '$db': 'd'}|not a find",
        "{insert: 'c', documents: [{a: 1}], '$db': 'd'}|not a find",
        "{find: 'c', filter: {a: 1}, someFutureOption: true, '$db': 'd'}|someFutureOption",
        "{find: {$binary: {base64: 'gOyFSvp9pLD1M4wGggABAg==', subType: '04'}}, filter: {a: 1}, '$db': 'd'}|UUID",
        "{find: 'c', filter: {a: 1}}|no $db",
        "{find: 'c', filter: {$text: {$search: 'coffee'}}, '$db': 'd'}|$text",
        "{find: 'c', filter: {$where: 'this.a > 1'}, '$db': 'd'}|$where",
        "{find: 'c', filter: {$jsonSchema: {required: ['a']}}, '$db': 'd'}|$jsonSchema",
        "{find: 'c', filter: {loc: {$near: [0, 0]}}, '$db': 'd'}|$near",
        "{find: 'c', filter: {loc: {$geoWithin: {$centerSphere: [[0, 0], 1]}}}, '$db': 'd'}|$geoWithin",
        "{find: 'c', filter: {a: {$foo: 1}}, '$db': 'd'}|$foo",
        "{find: 'c', filter: {a: {$gt: undefined}}, '$db': 'd'}|undefined",
        "{find: 'c', filter: {a: {$lt: {$regularExpression: {pattern: 'x', options: ''}}}}, '$db': 'd'}|regex as the argument",
        "{find: 'c', filter: {a: {$size: -1}}, '$db': 'd'}|$size",
        "{find: 'c', filter: {a: {$mod: [0, 1]}}, '$db': 'd'}|divisor",
        "{find: 'c', filter: {a: {$in: [{$gt: 1}]}}, '$db': 'd'}|cannot nest",
        "{find: 'c', filter: {$expr: {$dateToString: {date: '$d'}}}, '$db': 'd'}|$dateToString",
        "{find: 'c', filter: {$expr: {$eq: ['$$undefinedVariable', 1]}}, '$db': 'd'}|not defined",
        "{find: 'c', filter: {a: {$elemMatch: {$expr: {$eq: ['$a', 1]}}}}, '$db': 'd'}|$expr below the top level",
        "{find: 'c', showRecordId: true, '$db': 'd'}|showRecordId",
        "{find: 'c', projection: {a: {$slice: 2}}, '$db': 'd'}|only $slice decides",
        "{find: 'c', projection: {a: {$elemMatch: {b: 1}}}, '$db': 'd'}|$elemMatch projection",
        "{find: 'c', filter: {a: 1}, projection: {'a.$': 1}, '$db': 'd'}|positional",
        "{find: 'c', projection: {a: 1, b: 0}, '$db': 'd'}|mix inclusion",
        "{find: 'c', sort: {a: 2}, '$db': 'd'}|sort direction",
        "{find: 'c', limit: -1, '$db': 'd'}|negative",
        "{find: 'c', singleBatch: 1, '$db': 'd'}|singleBatch",
        "{aggregate: 'c', pipeline: [{$facet: {a: []}}], cursor: {}, '$db': 'd'}|$facet",
        "{aggregate: 'c', pipeline: [{$addFields: {a: 1}}], cursor: {}, '$db': 'd'}|$addFields",
        "{aggregate: 'c', pipeline: [{$project: {a: 1}}], cursor: {}, '$db': 'd'}|exclude _id",
        "{aggregate: 'c', pipeline: [{$sort: {s: {$meta: 'textScore'}}}], cursor: {}, '$db': 'd'}|sort direction",
        "{aggregate: 'c', pipeline: [{$out: 'x'}, {$limit: 1}], cursor: {}, '$db': 'd'}|$out must be the last",
        "{aggregate: 'c', pipeline: [{$group: {_id: '$a', n: {$top: {output: '$b', sortBy: {c: 1}}}}}], cursor: {}, "
            + "'$db': 'd'}|accumulator",
        "{aggregate: 'c', pipeline: [{$limit: 0}], cursor: {}, '$db': 'd'}|$limit must be positive",
        "{aggregate: 'c', pipeline: [], '$db': 'd'}|cursor",
        "{count: 'c', limit: 0, '$db': 'd'}|zero or redacted",
        "{distinct: 'c', '$db': 'd'}|key"})
    void noShape(final String command, final String reason) {
        assertNull(Commands.shape(shaper, command), command);
        assertTrue(shaper.refusal().contains(reason), command + ": " + shaper.refusal());
    }

    @Test
    void theSameCommandsWithoutTheCauseHaveAShape() {
        assertNotNull(Commands.shape(shaper, "{find: 'c', filter: {_id: 5}, hint: {_id: 1}, '$db': 'd'}"), shaper.refusal());
        assertNotNull(Commands.shape(shaper, "{find: 'c', filter: {_id: {$in: [5]}}, '$db': 'd'}"), shaper.refusal());
        assertNotNull(Commands.shape(shaper, "{find: 'c', filter: {_id: 5}, skip: 3, '$db': 'd'}"), shaper.refusal());
        assertNotNull(Commands.shape(shaper, "{find: 'c', filter: {_id: 5, a: 1}, '$db': 'd'}"), shaper.refusal());
        assertNotNull(Commands.shape(shaper, "{find: 'c', projection: {a: 1, _id: 0}, '$db': 'd'}"), shaper.refusal());
        assertNotNull(Commands.shape(shaper, "{find: 'admins', filter: {a: 1}, '$db': 'adminx'}"), shaper.refusal());
        assertNotNull(Commands.shape(shaper, "{aggregate: 1, pipeline: [], cursor: {}, '$db': 'd'}"), shaper.refusal());
    }

    @Test
    void malformedBytesGiveNoShape() {
        byte[] command = Commands.bytes("{find: 'c', filter: {a: {$in: [1, 'x']}}, sort: {b: 1}, '$db': 'd'}");
        assertNull(shaper.shape(command, 0, command.length - 1));
        assertTrue(shaper.refusal().startsWith("malformed BSON"), shaper.refusal());
        assertNull(shaper.shape(command, 3, command.length));
        assertNull(shaper.shape(command, -1, command.length));
        assertNull(shaper.shape(command, 0, command.length + 1));
        assertEquals("bounds out of the array", shaper.refusal());
        assertNull(shaper.shape(new byte[]{5, 0, 0, 0, 0}, 0, 5));
        assertEquals("an empty command", shaper.refusal());
        assertNotNull(shaper.shape(command, 0, command.length), shaper.refusal());
        assertEquals("", shaper.refusal());
    }

    /** Every byte of corpus commands corrupted in turn, and random bytes: no exception, whatever the answer. */
    @Test
    void corruptBytesNeverThrow() {
        Random random = new Random(8);
        QueryShaper redactedToo = new QueryShaper();
        for (org.bson.BsonDocument c : QueryShapeCorpusTest.cases()) {
            byte[] original = Commands.bytes(c.getDocument("command"));
            for (int i = 0; i < original.length; i++) {
                for (int round = 0; round < 3; round++) {
                    byte[] corrupt = original.clone();
                    corrupt[i] = (byte) (round == 0 ? 0 : round == 1 ? 0x7f : random.nextInt());
                    shaper.shape(corrupt, 0, corrupt.length);
                    redactedToo.shapeRedacted(corrupt, 0, corrupt.length);
                }
            }
        }
        for (int i = 0; i < 2000; i++) {
            byte[] noise = new byte[5 + random.nextInt(60)];
            random.nextBytes(noise);
            noise[0] = (byte) noise.length;
            noise[1] = 0;
            noise[2] = 0;
            noise[3] = 0;
            noise[noise.length - 1] = 0;
            shaper.shape(noise, 0, noise.length);
        }
    }
}

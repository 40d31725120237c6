package io.github.mongoredact;

import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The exact output of {@link RedactionPolicy#defaults()} per command family and reply, as relaxed JSON: keys, operators,
 * command names, collections and metadata stay; every value that may be user data becomes a typed placeholder.
 */
class DefaultPolicyTableTest {
    private static final JsonWriterSettings RELAXED = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED).build();
    private static final String LSID = "{\"id\": {\"$binary\": {\"base64\": \"EjRWeJq83vAP7cupCHZDIQ==\", \"subType\": \"04\"}}}";

    static Stream<Arguments> commands() {
        return Stream.of(
                Arguments.of("find with e-mail filter, sort, projection, limit",
                        "{\"find\": \"users\", \"filter\": {\"email\": \"alice@example.com\", \"age\": {\"$gte\": 21}},"
                                + " \"sort\": {\"age\": -1}, \"projection\": {\"email\": 1, \"_id\": 0}, \"limit\": 10,"
                                + " \"batchSize\": 101, \"singleBatch\": false, \"$db\": \"shop\", \"lsid\": " + LSID + "}",
                        new String[0],
                        "{\"find\": \"users\", \"filter\": {\"email\": \"?string\", \"age\": {\"$gte\": \"?number\"}},"
                                + " \"sort\": {\"age\": -1}, \"projection\": {\"email\": 1, \"_id\": 0}, \"limit\": 10,"
                                + " \"batchSize\": 101, \"singleBatch\": false, \"$db\": \"shop\", \"lsid\": " + LSID + "}"),
                Arguments.of("find with regex, $in, comment, hint, collation (values redacted), $clusterTime, txnNumber, readConcern",
                        "{\"find\": \"users\", \"filter\": {\"email\": {\"$regularExpression\": {\"pattern\": \"^alice\","
                                + " \"options\": \"i\"}}, \"name\": {\"$in\": [\"Alice\", \"Bob\"]}}, \"hint\": {\"email\": 1},"
                                + " \"comment\": \"ticket 42 alice\", \"collation\": {\"locale\": \"fr\"}, \"$db\": \"shop\","
                                + " \"$clusterTime\": {\"clusterTime\": {\"$timestamp\": {\"t\": 1, \"i\": 2}}, \"signature\":"
                                + " {\"hash\": {\"$binary\": {\"base64\": \"AAAAAAAAAAAAAAAAAAAAAAAAAAA=\", \"subType\": \"00\"}},"
                                + " \"keyId\": 7}}, \"txnNumber\": 3, \"readConcern\": {\"level\": \"majority\"}}",
                        new String[0],
                        "{\"find\": \"users\", \"filter\": {\"email\": \"?regex\", \"name\": {\"$in\": [\"?string\","
                                + " \"?string\"]}}, \"hint\": {\"email\": 1}, \"comment\": \"?string\", \"collation\":"
                                + " {\"locale\": \"?string\"}, \"$db\": \"shop\", \"$clusterTime\": {\"clusterTime\": {\"$timestamp\":"
                                + " {\"t\": 1, \"i\": 2}}}, \"txnNumber\": 3, \"readConcern\": {\"level\": \"majority\"}}"),
                Arguments.of("find with a projection that holds a value",
                        "{\"find\": \"users\", \"filter\": {}, \"projection\": {\"orders\": {\"$elemMatch\":"
                                + " {\"email\": \"alice@example.com\"}}, \"name\": 1}, \"$db\": \"shop\"}",
                        new String[0],
                        "{\"find\": \"users\", \"filter\": {}, \"projection\": {\"orders\": {\"$elemMatch\":"
                                + " {\"email\": \"?string\"}}, \"name\": 1}, \"$db\": \"shop\"}"),
                Arguments.of("find with projection literals and operators: inclusion flags kept, values redacted",
                        "{\"find\": \"users\", \"filter\": {}, \"projection\": {\"name\": 1, \"_id\": false, \"note\":"
                                + " \"alice@example.com\", \"city\": \"$address.city\", \"b\": {\"$slice\": [5, 10]},"
                                + " \"d\": {\"$literal\": \"bob@example.com\"}}, \"$db\": \"shop\"}",
                        new String[0],
                        "{\"find\": \"users\", \"filter\": {}, \"projection\": {\"name\": 1, \"_id\": false, \"note\":"
                                + " \"?string\", \"city\": \"?string\", \"b\": {\"$slice\": [\"?number\", \"?number\"]},"
                                + " \"d\": {\"$literal\": \"?string\"}}, \"$db\": \"shop\"}"),
                Arguments.of("explain of an aggregate: name and collection kept, everything else redacted",
                        "{\"explain\": {\"aggregate\": \"orders\", \"pipeline\": [{\"$match\": {\"email\":"
                                + " \"alice@example.com\"}}], \"cursor\": {}}, \"verbosity\": \"executionStats\", \"$db\": \"shop\"}",
                        new String[0],
                        "{\"explain\": {\"aggregate\": \"orders\", \"pipeline\": [{\"$match\": {\"email\":"
                                + " \"?string\"}}], \"cursor\": {}}, \"verbosity\": \"executionStats\", \"$db\": \"shop\"}"),
                Arguments.of("aggregate with the explain flag",
                        "{\"aggregate\": \"orders\", \"pipeline\": [], \"explain\": true, \"cursor\": {}, \"$db\": \"shop\"}",
                        new String[0],
                        "{\"aggregate\": \"orders\", \"pipeline\": [], \"explain\": true, \"cursor\": {}, \"$db\": \"shop\"}"),
                Arguments.of("aggregate with $lookup (let keys masked) and $merge (whenMatched is a pipeline or a redacted string)",
                        "{\"aggregate\": \"orders\", \"pipeline\": [{\"$match\": {\"status\": \"shipped\", \"total\":"
                                + " {\"$gt\": 100}}}, {\"$lookup\": {\"from\": \"users\", \"localField\": \"userId\","
                                + " \"foreignField\": \"_id\", \"let\": {\"customerEmail\": \"$email\", \"minTotal\": 5},"
                                + " \"pipeline\": [{\"$match\": {\"$expr\": {\"$eq\": [\"$email\", \"$$customerEmail\"]}}}],"
                                + " \"as\": \"buyer\"}}, {\"$sort\": {\"total\": -1}}, {\"$limit\": 5}, {\"$merge\":"
                                + " {\"into\": \"totals\", \"on\": \"_id\", \"whenMatched\": \"replace\", \"whenNotMatched\":"
                                + " \"insert\"}}], \"cursor\": {}, \"$db\": \"shop\"}",
                        new String[0],
                        "{\"aggregate\": \"orders\", \"pipeline\": [{\"$match\": {\"status\": \"?string\", \"total\":"
                                + " {\"$gt\": \"?number\"}}}, {\"$lookup\": {\"from\": \"users\", \"localField\": \"userId\","
                                + " \"foreignField\": \"_id\", \"let\": {\"?0\": \"?string\", \"?1\": \"?number\"},"
                                + " \"pipeline\": [{\"$match\": {\"$expr\": {\"$eq\": [\"?string\", \"?string\"]}}}],"
                                + " \"as\": \"buyer\"}}, {\"$sort\": {\"total\": -1}}, {\"$limit\": 5}, {\"$merge\":"
                                + " {\"into\": \"totals\", \"on\": \"_id\", \"whenMatched\": \"?string\", \"whenNotMatched\":"
                                + " \"insert\"}}], \"cursor\": {}, \"$db\": \"shop\"}"),
                Arguments.of("aggregate with $out and top-level let",
                        "{\"aggregate\": \"orders\", \"pipeline\": [{\"$match\": {\"email\": \"bob@example.com\"}},"
                                + " {\"$out\": \"archive\"}], \"cursor\": {\"batchSize\": 0}, \"let\": {\"secretVar\": \"x\"},"
                                + " \"$db\": \"shop\"}",
                        new String[0],
                        "{\"aggregate\": \"orders\", \"pipeline\": [{\"$match\": {\"email\": \"?string\"}},"
                                + " {\"$out\": \"archive\"}], \"cursor\": {\"batchSize\": 0}, \"let\": {\"?0\": \"?string\"},"
                                + " \"$db\": \"shop\"}"),
                Arguments.of("insert with documents sequence",
                        "{\"insert\": \"users\", \"ordered\": true, \"$db\": \"shop\"}",
                        new String[]{"documents", "[{\"_id\": {\"$oid\": \"65a1b2c3d4e5f60718293a4b\"}, \"email\":"
                                + " \"alice@example.com\", \"age\": 30, \"tags\": [\"a\", \"b\"]}, {\"email\": \"bob@example.com\","
                                + " \"address\": {\"city\": \"Paris\"}}]"},
                        "{\"insert\": \"users\", \"ordered\": true, \"$db\": \"shop\", \"documents\": [{\"_id\": \"?objectId\","
                                + " \"email\": \"?string\", \"age\": \"?number\", \"tags\": [\"?string\", \"?string\"]},"
                                + " {\"email\": \"?string\", \"address\": {\"city\": \"?string\"}}]}"),
                Arguments.of("update: q and u redacted, multi and upsert kept",
                        "{\"update\": \"users\", \"ordered\": true, \"$db\": \"shop\"}",
                        new String[]{"updates", "[{\"q\": {\"email\": \"alice@example.com\"}, \"u\": {\"$set\": {\"vip\": true,"
                                + " \"name\": \"Alice\"}}, \"multi\": false, \"upsert\": true}, {\"q\": {\"email\": \"a@b.c\"},"
                                + " \"u\": [{\"$set\": {\"email\": \"x@example.com\"}}], \"arrayFilters\": [{\"elem.email\":"
                                + " \"y@example.com\"}], \"collation\": {\"locale\": \"en\"}, \"multi\": true}]"},
                        "{\"update\": \"users\", \"ordered\": true, \"$db\": \"shop\", \"updates\": [{\"q\": {\"email\":"
                                + " \"?string\"}, \"u\": {\"$set\": {\"vip\": \"?bool\", \"name\": \"?string\"}}, \"multi\": false,"
                                + " \"upsert\": true}, {\"q\": {\"email\": \"?string\"}, \"u\": [{\"$set\": {\"email\":"
                                + " \"?string\"}}], \"arrayFilters\": [{\"elem.email\": \"?string\"}], \"collation\":"
                                + " {\"locale\": \"?string\"}, \"multi\": true}]}"),
                Arguments.of("delete",
                        "{\"delete\": \"users\", \"ordered\": false, \"$db\": \"shop\"}",
                        new String[]{"deletes", "[{\"q\": {\"email\": \"bob@example.com\"}, \"limit\": 1}]"},
                        "{\"delete\": \"users\", \"ordered\": false, \"$db\": \"shop\", \"deletes\": [{\"q\": {\"email\":"
                                + " \"?string\"}, \"limit\": 1}]}"),
                Arguments.of("findAndModify",
                        "{\"findAndModify\": \"users\", \"query\": {\"email\": \"alice@example.com\"}, \"update\": {\"$inc\":"
                                + " {\"visits\": 1}}, \"new\": true, \"upsert\": false, \"sort\": {\"age\": 1}, \"fields\":"
                                + " {\"email\": 1}, \"$db\": \"shop\"}",
                        new String[0],
                        "{\"findAndModify\": \"users\", \"query\": {\"email\": \"?string\"}, \"update\": {\"$inc\":"
                                + " {\"visits\": \"?number\"}}, \"new\": true, \"upsert\": false, \"sort\": {\"age\": 1},"
                                + " \"fields\": {\"email\": 1}, \"$db\": \"shop\"}"),
                Arguments.of("distinct",
                        "{\"distinct\": \"users\", \"key\": \"city\", \"query\": {\"age\": {\"$lt\": 18}}, \"$db\": \"shop\"}",
                        new String[0],
                        "{\"distinct\": \"users\", \"key\": \"city\", \"query\": {\"age\": {\"$lt\": \"?number\"}},"
                                + " \"$db\": \"shop\"}"),
                Arguments.of("count",
                        "{\"count\": \"users\", \"query\": {\"email\": \"alice@example.com\"}, \"limit\": 1, \"skip\": 2,"
                                + " \"$db\": \"shop\"}",
                        new String[0],
                        "{\"count\": \"users\", \"query\": {\"email\": \"?string\"}, \"limit\": 1, \"skip\": 2,"
                                + " \"$db\": \"shop\"}"),
                Arguments.of("getMore: cursor id and collection kept",
                        "{\"getMore\": {\"$numberLong\": \"8234567890123\"}, \"collection\": \"users\", \"batchSize\": 100,"
                                + " \"maxTimeMS\": 500, \"$db\": \"shop\"}",
                        new String[0],
                        "{\"getMore\": 8234567890123, \"collection\": \"users\", \"batchSize\": 100, \"maxTimeMS\": 500,"
                                + " \"$db\": \"shop\"}"),
                Arguments.of("createIndexes",
                        "{\"createIndexes\": \"users\", \"indexes\": [{\"key\": {\"email\": 1}, \"name\": \"email_1\","
                                + " \"unique\": true}], \"$db\": \"shop\"}",
                        new String[0],
                        "{\"createIndexes\": \"users\", \"indexes\": [{\"key\": {\"email\": 1}, \"name\": \"?string\","
                                + " \"unique\": true}], \"$db\": \"shop\"}"),
                Arguments.of("explain: the explained command is redacted like the command itself",
                        "{\"explain\": {\"find\": \"users\", \"filter\": {\"email\": \"alice@example.com\"}},"
                                + " \"verbosity\": \"queryPlanner\", \"$db\": \"shop\"}",
                        new String[0],
                        "{\"explain\": {\"find\": \"users\", \"filter\": {\"email\": \"?string\"}},"
                                + " \"verbosity\": \"queryPlanner\", \"$db\": \"shop\"}"),
                Arguments.of("nested pipelines: stage rules at the stage level only, literals redacted, cursor keeps batchSize",
                        "{\"aggregate\": \"orders\", \"pipeline\": [{\"$facet\": {\"a\": [{\"$limit\": 3}, {\"$match\":"
                                + " {\"$limit\": \"bob@example.com\"}}]}}, {\"$unionWith\": {\"coll\": \"other\", \"pipeline\":"
                                + " [{\"$skip\": 2}, {\"$project\": {\"x\": 6075992812306324049, \"y\": 1, \"z\": {\"$literal\":"
                                + " {\"$sort\": \"eve@example.com\"}}}}]}}, {\"$lookup\": {\"from\": \"u\", \"as\": \"o\","
                                + " \"pipeline\": [{\"$sort\": {\"a\": -1, \"b\": 6075992812306324049}}]}}, {\"$merge\": {\"into\":"
                                + " \"t\", \"whenMatched\": [{\"$set\": {\"approvedBy\": \"carol@example.com\"}}]}}],"
                                + " \"cursor\": {\"batchSize\": 2, \"note\": \"frank@example.com\"}, \"$db\": \"shop\"}",
                        new String[0],
                        "{\"aggregate\": \"orders\", \"pipeline\": [{\"$facet\": {\"a\": [{\"$limit\": 3}, {\"$match\":"
                                + " {\"$limit\": \"?string\"}}]}}, {\"$unionWith\": {\"coll\": \"other\", \"pipeline\":"
                                + " [{\"$skip\": 2}, {\"$project\": {\"x\": \"?number\", \"y\": 1, \"z\": {\"$literal\":"
                                + " {\"$sort\": \"?string\"}}}}]}}, {\"$lookup\": {\"from\": \"u\", \"as\": \"o\","
                                + " \"pipeline\": [{\"$sort\": {\"a\": -1, \"b\": \"?number\"}}]}}, {\"$merge\": {\"into\":"
                                + " \"t\", \"whenMatched\": [{\"$set\": {\"approvedBy\": \"?string\"}}]}}],"
                                + " \"cursor\": {\"batchSize\": 2, \"note\": \"?string\"}, \"$db\": \"shop\"}"),
                Arguments.of("createIndexes: keys, names and options kept, partial filter, collation, weights values redacted",
                        "{\"createIndexes\": \"users\", \"indexes\": [{\"key\": {\"tenant\": 1, \"bio\": \"text\"},"
                                + " \"name\": \"tenant_1\", \"partialFilterExpression\": {\"tenant\": \"dave@example.com\"},"
                                + " \"collation\": {\"locale\": \"fr\", \"strength\": 2}, \"weights\": {\"bio\": 7},"
                                + " \"unique\": true}, {\"key\": {\"$**\": 1, \"loc\": \"2dsphere\", \"h\": \"hashed\","
                                + " \"z\": \"alice\"}, \"name\": \"wc\", \"wildcardProjection\": {\"a\": 1, \"b\": 0,"
                                + " \"x\": 6075992812306324049}}], \"$db\": \"shop\"}",
                        new String[0],
                        "{\"createIndexes\": \"users\", \"indexes\": [{\"key\": {\"tenant\": 1, \"bio\": \"text\"},"
                                + " \"name\": \"?string\", \"partialFilterExpression\": {\"tenant\": \"?string\"},"
                                + " \"collation\": {\"locale\": \"?string\", \"strength\": \"?number\"}, \"weights\":"
                                + " {\"bio\": \"?number\"}, \"unique\": true}, {\"key\": {\"$**\": 1, \"loc\": \"2dsphere\","
                                + " \"h\": \"hashed\", \"z\": \"?string\"}, \"name\": \"?string\", \"wildcardProjection\":"
                                + " {\"a\": 1, \"b\": 0, \"x\": \"?number\"}}], \"$db\": \"shop\"}"),
                Arguments.of("projection and sort keep only flags",
                        "{\"find\": \"users\", \"projection\": {\"x\": 6075992812306324049, \"y\": 1, \"z\": true,"
                                + " \"w\": 0.0}, \"sort\": {\"a\": -1, \"b\": 42}, \"$db\": \"shop\"}",
                        new String[0],
                        "{\"find\": \"users\", \"projection\": {\"x\": \"?number\", \"y\": 1, \"z\": true,"
                                + " \"w\": 0.0}, \"sort\": {\"a\": -1, \"b\": \"?number\"}, \"$db\": \"shop\"}"),
                Arguments.of("usersInfo: the first field is not a collection, its value is redacted",
                        "{\"usersInfo\": \"grace@example.com\", \"$db\": \"admin\"}", new String[0],
                        "{\"usersInfo\": \"?string\", \"$db\": \"admin\"}"),
                Arguments.of("grantRolesToUser: user name redacted, keys stay",
                        "{\"grantRolesToUser\": \"ivan@example.com\", \"roles\": [\"read\"], \"$db\": \"admin\"}",
                        new String[0],
                        "{\"grantRolesToUser\": \"?string\", \"roles\": [\"?string\"], \"$db\": \"admin\"}"),
                Arguments.of("logApplicationMessage: text redacted",
                        "{\"logApplicationMessage\": \"judy@example.com\", \"$db\": \"admin\"}", new String[0],
                        "{\"logApplicationMessage\": \"?string\", \"$db\": \"admin\"}"),
                Arguments.of("eval: code redacted",
                        "{\"eval\": {\"$code\": \"return 'mallory@example.com'\"}, \"$db\": \"shop\"}", new String[0],
                        "{\"eval\": \"?javascript\", \"$db\": \"shop\"}"),
                Arguments.of("ping: a flag as first field stays",
                        "{\"ping\": 1, \"$db\": \"admin\"}", new String[0], "{\"ping\": 1, \"$db\": \"admin\"}"),
                Arguments.of("usersInfo 1 (all users): a flag stays, a large number does not",
                        "{\"usersInfo\": 1, \"dropUser\": 4242, \"$db\": \"admin\"}", new String[0],
                        "{\"usersInfo\": 1, \"dropUser\": \"?number\", \"$db\": \"admin\"}"),
                Arguments.of("bulkWrite with ops and nsInfo",
                        "{\"bulkWrite\": 1, \"errorsOnly\": true, \"ordered\": true, \"$db\": \"admin\"}",
                        new String[]{"ops", "[{\"insert\": 0, \"document\": {\"email\": \"carol@example.com\"}}, {\"update\": 1,"
                                + " \"filter\": {\"email\": \"dave@example.com\"}, \"updateMods\": {\"$set\": {\"vip\": true}},"
                                + " \"multi\": false, \"upsert\": true}, {\"delete\": 0, \"filter\": {\"age\": 3}, \"multi\": true}]",
                                "nsInfo", "[{\"ns\": \"shop.users\"}, {\"ns\": \"shop.orders\"}]"},
                        "{\"bulkWrite\": 1, \"errorsOnly\": true, \"ordered\": true, \"$db\": \"admin\", \"ops\": [{\"insert\": 0,"
                                + " \"document\": {\"email\": \"?string\"}}, {\"update\": 1, \"filter\": {\"email\": \"?string\"},"
                                + " \"updateMods\": {\"$set\": {\"vip\": \"?bool\"}}, \"multi\": false, \"upsert\": true},"
                                + " {\"delete\": 0, \"filter\": {\"age\": \"?number\"}, \"multi\": true}], \"nsInfo\":"
                                + " [{\"ns\": \"shop.users\"}, {\"ns\": \"shop.orders\"}]}"));
    }

    static Stream<Arguments> replies() {
        return Stream.of(
                Arguments.of("find", "find reply: cursor id and ns kept, firstBatch redacted",
                        "{\"cursor\": {\"firstBatch\": [{\"_id\": 1, \"email\": \"alice@example.com\"}, {\"_id\": 2, \"email\":"
                                + " \"bob@example.com\"}], \"id\": {\"$numberLong\": \"8234567890123\"}, \"ns\": \"shop.users\"},"
                                + " \"ok\": 1.0}",
                        "{\"cursor\": {\"firstBatch\": [{\"_id\": \"?number\", \"email\": \"?string\"}, {\"_id\": \"?number\","
                                + " \"email\": \"?string\"}], \"id\": 8234567890123, \"ns\": \"shop.users\"}, \"ok\": 1.0}"),
                Arguments.of("getMore", "getMore reply: nextBatch redacted",
                        "{\"cursor\": {\"nextBatch\": [{\"_id\": 3, \"email\": \"carol@example.com\"}], \"id\":"
                                + " {\"$numberLong\": \"0\"}, \"ns\": \"shop.users\"}, \"ok\": 1.0}",
                        "{\"cursor\": {\"nextBatch\": [{\"_id\": \"?number\", \"email\": \"?string\"}], \"id\": 0,"
                                + " \"ns\": \"shop.users\"}, \"ok\": 1.0}"),
                Arguments.of("insert", "insert reply with writeErrors: code kept, errmsg scrubbed, keyValue redacted",
                        "{\"n\": 1, \"writeErrors\": [{\"index\": 1, \"code\": 11000, \"codeName\": \"DuplicateKey\","
                                + " \"errmsg\": \"E11000 duplicate key error collection: shop.users index: email_1 dup key:"
                                + " { email: \\\"alice@example.com\\\" }\", \"keyPattern\": {\"email\": 1}, \"keyValue\":"
                                + " {\"email\": \"alice@example.com\"}}], \"ok\": 1.0}",
                        "{\"n\": 1, \"writeErrors\": [{\"index\": 1, \"code\": 11000, \"codeName\": \"DuplicateKey\","
                                + " \"errmsg\": \"E11000 duplicate key error collection: shop.users index: email_1 dup key:"
                                + " { email: ? }\", \"keyPattern\": {\"email\": 1}, \"keyValue\": {\"email\": \"?string\"}}],"
                                + " \"ok\": 1.0}"),
                Arguments.of("insert", "insert reply with writeConcernError: errInfo redacted",
                        "{\"n\": 1, \"writeConcernError\": {\"code\": 64, \"codeName\": \"WriteConcernFailed\", \"errmsg\":"
                                + " \"waiting for replication timed out\", \"errInfo\": {\"wtimeout\": true}}, \"ok\": 1.0}",
                        "{\"n\": 1, \"writeConcernError\": {\"code\": 64, \"codeName\": \"WriteConcernFailed\", \"errmsg\":"
                                + " \"waiting for replication timed out\", \"errInfo\": {\"wtimeout\": \"?bool\"}}, \"ok\": 1.0}"),
                Arguments.of("findAndModify", "findAndModify reply: value redacted, lastErrorObject kept",
                        "{\"lastErrorObject\": {\"n\": 1, \"updatedExisting\": true}, \"value\": {\"_id\": 1, \"email\":"
                                + " \"alice@example.com\", \"visits\": 3}, \"ok\": 1.0}",
                        "{\"lastErrorObject\": {\"n\": 1, \"updatedExisting\": true}, \"value\": {\"_id\": \"?number\","
                                + " \"email\": \"?string\", \"visits\": \"?number\"}, \"ok\": 1.0}"),
                Arguments.of("distinct", "distinct reply: values redacted",
                        "{\"values\": [\"Paris\", \"Berlin\"], \"ok\": 1.0}",
                        "{\"values\": [\"?string\", \"?string\"], \"ok\": 1.0}"),
                Arguments.of("update", "update reply: counts kept, upserted ids redacted",
                        "{\"n\": 1, \"nModified\": 1, \"upserted\": [{\"index\": 0, \"_id\": {\"$oid\":"
                                + " \"65a1b2c3d4e5f60718293a4b\"}}], \"ok\": 1.0}",
                        "{\"n\": 1, \"nModified\": 1, \"upserted\": [{\"index\": 0, \"_id\": \"?objectId\"}], \"ok\": 1.0}"),
                Arguments.of("find", "reply batch documents with server field names: all user data",
                        "{\"cursor\": {\"firstBatch\": [{\"_id\": 1, \"errmsg\": \"card 4111-1111-1111-1111 declined\","
                                + " \"keyPattern\": {\"ssn\": \"078-05-1120\"}, \"ok\": 1, \"code\": 7, \"meta\": {\"$limit\":"
                                + " \"bob@example.com\"}}], \"id\": 0, \"ns\": \"shop.users\"}, \"ok\": 1.0}",
                        "{\"cursor\": {\"firstBatch\": [{\"_id\": \"?number\", \"errmsg\": \"?string\", \"keyPattern\":"
                                + " {\"ssn\": \"?string\"}, \"ok\": \"?number\", \"code\": \"?number\", \"meta\": {\"$limit\":"
                                + " \"?string\"}}], \"id\": 0, \"ns\": \"shop.users\"}, \"ok\": 1.0}"),
                Arguments.of("findAndModify", "findAndModify value with server field names: user data",
                        "{\"lastErrorObject\": {\"n\": 1}, \"value\": {\"errmsg\": \"alice@example.com\","
                                + " \"writeErrors\": [{\"code\": 5}]}, \"ok\": 1.0}",
                        "{\"lastErrorObject\": {\"n\": 1}, \"value\": {\"errmsg\": \"?string\", \"writeErrors\":"
                                + " [{\"code\": \"?number\"}]}, \"ok\": 1.0}"),
                Arguments.of("findAndModify", "top-level keyPattern keeps index directions only",
                        "{\"ok\": 0.0, \"code\": 11000, \"keyPattern\": {\"email\": 1, \"ssn\": \"078-05-1120\"},"
                                + " \"keyValue\": {\"email\": \"alice@example.com\"}}",
                        "{\"ok\": 0.0, \"code\": 11000, \"keyPattern\": {\"email\": 1, \"ssn\": \"?string\"},"
                                + " \"keyValue\": {\"email\": \"?string\"}}"),
                Arguments.of("count", "count reply", "{\"n\": 42, \"ok\": 1.0}", "{\"n\": 42, \"ok\": 1.0}"),
                Arguments.of("find", "error reply: code kept, quoted values scrubbed, cluster time signature dropped",
                        "{\"ok\": 0.0, \"errmsg\": \"cannot compare 'alice@example.com'\", \"code\": 2, \"codeName\":"
                                + " \"BadValue\", \"$clusterTime\": {\"clusterTime\": {\"$timestamp\": {\"t\": 1, \"i\": 2}},"
                                + " \"signature\": {\"hash\": {\"$binary\": {\"base64\": \"AAAAAAAAAAAAAAAAAAAAAAAAAAA=\","
                                + " \"subType\": \"00\"}}, \"keyId\": 7}}, \"operationTime\": {\"$timestamp\": {\"t\": 1, \"i\": 2}}}",
                        "{\"ok\": 0.0, \"errmsg\": \"cannot compare '?'\", \"code\": 2, \"codeName\": \"BadValue\","
                                + " \"$clusterTime\": {\"clusterTime\": {\"$timestamp\": {\"t\": 1, \"i\": 2}}},"
                                + " \"operationTime\": {\"$timestamp\": {\"t\": 1, \"i\": 2}}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void commandIsRedactedToItsShape(final String family, final String command, final String[] sequences,
                                     final String expected) {
        BsonDocument top = BsonDocument.parse(command);
        for (Backing backing : new Backing[]{Backing.BYTE_BUF_HEAP_IN_MESSAGE, Backing.RAW}) {
            BsonDocument input;
            if (sequences.length == 0) {
                input = DriverShapes.byteBacked(top, backing);
            } else {
                Object[] pairs = new Object[sequences.length];
                for (int i = 0; i < sequences.length; i += 2) {
                    pairs[i] = sequences[i];
                    List<BsonDocument> documents = new ArrayList<>();
                    for (BsonValue value : BsonArray.parse(sequences[i + 1])) {
                        documents.add(value.asDocument());
                    }
                    pairs[i + 1] = documents;
                }
                input = DriverShapes.withSequences(top, backing, pairs);
            }
            LastEventListener last = new LastEventListener();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                    .addListener(last).build();
            listener.commandStarted(DriverShapes.started(1, top.getFirstKey(), input));
            assertEquals(expected, last.started.getCommand().toJson(RELAXED), family + " " + backing);
        }
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("replies")
    void replyIsRedactedToItsShape(final String commandName, final String what, final String reply, final String expected) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.defaults())
                .addListener(last).build();
        RawBsonDocument raw = new RawBsonDocument(BsonDocument.parse(reply), new BsonDocumentCodec());
        listener.commandSucceeded(DriverShapes.succeeded(1, commandName, raw));
        assertEquals(expected, last.succeeded.getResponse().toJson(RELAXED), what);
    }
}

package io.github.mongoredact;

import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDbPointer;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonJavaScript;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonSymbol;
import org.bson.BsonTimestamp;
import org.bson.BsonUndefined;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static io.github.mongoredact.DriverShapes.encode;
import static io.github.mongoredact.DriverShapes.ownedBytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The forwarded documents are byte for byte the {@code BsonDocumentCodec} encoding of the expected merged document, in one
 * array of exactly the output's length, for every shape the driver hands a listener.
 */
class ExactCopyTest {
    static final int[] SEQUENCE_COUNTS = {0, 1, 5, 10, 100, 1000};

    static Stream<Arguments> sequenceCases() {
        List<Arguments> cases = new ArrayList<>();
        for (Backing backing : Backing.values()) {
            for (int count : SEQUENCE_COUNTS) {
                cases.add(Arguments.of(backing, count));
            }
        }
        return cases.stream();
    }

    // ----------------------------------------------------------------------------------------------------------------------
    // spec only: verbatim

    @ParameterizedTest
    @EnumSource(Backing.class)
    void byteBackedCommandOfEveryTypeIsCopiedVerbatim(final Backing backing) {
        BsonDocument find = everyTypeFind();
        byte[] out = startedBytes(RedactionPolicy.specOnly(), "find", DriverShapes.byteBacked(find, backing));
        assertArrayEquals(encode(find), out);
    }

    @ParameterizedTest
    @MethodSource("sequenceCases")
    void insertWithSequenceIsMergedAsArrayVerbatim(final Backing backing, final int count) {
        List<BsonDocument> documents = customers(count);
        BsonDocument command = DriverShapes.withSequences(insertTop(), backing, "documents", documents);
        byte[] out = startedBytes(RedactionPolicy.specOnly(), "insert", command);
        assertArrayEquals(encode(DriverShapes.merged(insertTop(), "documents", documents)), out);
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void updateDeleteAndBulkWriteSequencesAreMergedVerbatim(final Backing backing) {
        List<BsonDocument> updates = new ArrayList<>();
        List<BsonDocument> deletes = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            updates.add(new BsonDocument("q", new BsonDocument("email", new BsonString("u" + i + "@example.com")))
                    .append("u", new BsonDocument("$set", new BsonDocument("vip", BsonBoolean.TRUE)))
                    .append("multi", BsonBoolean.valueOf(i % 2 == 0)).append("upsert", BsonBoolean.FALSE));
            deletes.add(new BsonDocument("q", new BsonDocument("n", new BsonInt32(i))).append("limit", new BsonInt32(1)));
        }
        BsonDocument updateTop = new BsonDocument("update", new BsonString("customers"))
                .append("ordered", BsonBoolean.TRUE).append("$db", new BsonString("shop"));
        assertArrayEquals(encode(DriverShapes.merged(updateTop, "updates", updates)),
                startedBytes(RedactionPolicy.specOnly(), "update", DriverShapes.withSequences(updateTop, backing, "updates",
                        updates)));
        BsonDocument deleteTop = new BsonDocument("delete", new BsonString("customers"))
                .append("ordered", BsonBoolean.FALSE).append("$db", new BsonString("shop"));
        assertArrayEquals(encode(DriverShapes.merged(deleteTop, "deletes", deletes)),
                startedBytes(RedactionPolicy.specOnly(), "delete", DriverShapes.withSequences(deleteTop, backing, "deletes",
                        deletes)));
        List<BsonDocument> ops = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ops.add(new BsonDocument("insert", new BsonInt32(i % 2))
                    .append("document", new BsonDocument("email", new BsonString("b" + i + "@example.com"))));
        }
        List<BsonDocument> nsInfo = List.of(new BsonDocument("ns", new BsonString("shop.customers")),
                new BsonDocument("ns", new BsonString("shop.orders")));
        BsonDocument bulkTop = new BsonDocument("bulkWrite", new BsonInt32(1)).append("errorsOnly", BsonBoolean.TRUE)
                .append("ordered", BsonBoolean.TRUE).append("$db", new BsonString("admin"));
        assertArrayEquals(encode(DriverShapes.merged(bulkTop, "ops", ops, "nsInfo", nsInfo)),
                startedBytes(RedactionPolicy.specOnly(), "bulkWrite", DriverShapes.withSequences(bulkTop, backing, "ops", ops,
                        "nsInfo", nsInfo)));
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void replyIsCopiedVerbatim(final Backing backing) {
        BsonDocument reply = findReply(customers(25));
        byte[] out = replyBytes(RedactionPolicy.specOnly(), "find", DriverShapes.byteBacked(reply, backing));
        assertArrayEquals(encode(reply), out);
    }

    @Test
    void plainTopLevelOfEveryTypeIsEncodedAsTheCodecDoes() {
        // the plain top level of a sequence command, value by value, with every type the encoder knows
        BsonDocument top = everyTypeFind();
        top.remove("find");
        top.remove("binaryOld");
        BsonDocument insert = new BsonDocument("insert", new BsonString("customers")).append("let", top)
                .append("$db", new BsonString("shop"));
        List<BsonDocument> documents = List.of(everyTypeFind(), new BsonDocument("unicode",
                new BsonString("\u00e9t\u00e9 \u6771\u4eac \ud83d\ude00")));
        byte[] out = startedBytes(RedactionPolicy.specOnly(), "insert",
                DriverShapes.withSequences(insert, Backing.BYTE_BUF_HEAP, "documents", documents));
        assertArrayEquals(encode(DriverShapes.merged(insert, "documents", documents)), out);
    }

    @Test
    void forwardedCopiesSurviveTheDriverReusingItsBuffers() {
        BsonDocument find = everyTypeFind();
        byte[] expected = encode(find);
        for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.specOnly(), RedactionPolicy.defaults()}) {
            byte[] heap = expected.clone();
            java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(expected.length);
            direct.put(expected).clear();
            byte[] rawArray = expected.clone();
            List<BsonDocument> inputs = List.of(DriverShapes.byteBufDocument(java.nio.ByteBuffer.wrap(heap), 0),
                    DriverShapes.byteBufDocument(direct, 0), new RawBsonDocument(rawArray));
            List<byte[]> outputs = new ArrayList<>();
            for (BsonDocument input : inputs) {
                outputs.add(startedBytes(policy, "find", input).clone());
            }
            List<BsonDocument> forwarded = new ArrayList<>();
            LastEventListener last = new LastEventListener();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
            for (BsonDocument input : inputs) {
                listener.commandStarted(DriverShapes.started(1, "find", input));
                forwarded.add(last.started.getCommand());
            }
            // the pool hands the buffers to the next message
            java.util.Arrays.fill(heap, (byte) 0x33);
            java.util.Arrays.fill(rawArray, (byte) 0x44);
            for (int i = 0; i < expected.length; i++) {
                direct.put(i, (byte) 0x55);
            }
            for (int i = 0; i < inputs.size(); i++) {
                assertArrayEquals(outputs.get(i), ownedBytes(forwarded.get(i)), "input " + i + " " + policy);
            }
            if (policy == RedactionPolicy.specOnly()) {
                for (byte[] output : outputs) {
                    assertArrayEquals(expected, output);
                }
            }
        }
    }

    @Test
    void oldBinarySubtypeInPlainTopLevelKeepsItsInnerLength() {
        // subtype 0x02 carries its own int32 length inside the binary value; the codec writes it, so must the listener
        BsonDocument insert = new BsonDocument("insert", new BsonString("customers"))
                .append("let", new BsonDocument("old", new BsonBinary(BsonBinarySubType.OLD_BINARY, new byte[]{9, 8})))
                .append("$db", new BsonString("shop"));
        List<BsonDocument> documents = List.of(new BsonDocument("a", new BsonInt32(1)));
        byte[] out = startedBytes(RedactionPolicy.specOnly(), "insert",
                DriverShapes.withSequences(insert, Backing.RAW, "documents", documents));
        assertArrayEquals(encode(DriverShapes.merged(insert, "documents", documents)), out);
    }

    // ----------------------------------------------------------------------------------------------------------------------
    // defaults: shape kept, values become typed placeholders, still one exact array

    @ParameterizedTest
    @MethodSource("sequenceCases")
    void insertUnderDefaultsIsMergedWithPlaceholders(final Backing backing, final int count) {
        List<BsonDocument> documents = customers(count);
        BsonDocument command = DriverShapes.withSequences(insertTop(), backing, "documents", documents);
        byte[] out = startedBytes(RedactionPolicy.defaults(), "insert", command);

        List<BsonDocument> redacted = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            redacted.add(new BsonDocument("_id", s("?objectId")).append("name", s("?string")).append("email", s("?string"))
                    .append("n", s("?number")).append("tags", new BsonArray(List.of(s("?string"), s("?string"))))
                    .append("address", new BsonDocument("city", s("?string")).append("zip", s("?number"))));
        }
        BsonDocument expectedTop = insertTop();
        expectedTop.getDocument("$clusterTime").remove("signature");
        assertArrayEquals(encode(DriverShapes.merged(expectedTop, "documents", redacted)), out,
                () -> new RawBsonDocument(out).toJson());
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void byteBackedFindUnderDefaultsKeepsShapeAndMetadata(final Backing backing) {
        BsonDocument find = new BsonDocument("find", new BsonString("customers"))
                .append("filter", new BsonDocument("email", new BsonString("alice@example.com"))
                        .append("n", new BsonDocument("$gte", new BsonInt32(3))))
                .append("sort", new BsonDocument("n", new BsonInt32(-1)))
                .append("projection", new BsonDocument("email", new BsonInt32(1)))
                .append("limit", new BsonInt32(10))
                .append("lsid", lsid())
                .append("$db", new BsonString("shop"));
        byte[] out = startedBytes(RedactionPolicy.defaults(), "find", DriverShapes.byteBacked(find, backing));
        BsonDocument expected = new BsonDocument("find", new BsonString("customers"))
                .append("filter", new BsonDocument("email", s("?string")).append("n", new BsonDocument("$gte", s("?number"))))
                .append("sort", new BsonDocument("n", new BsonInt32(-1)))
                .append("projection", new BsonDocument("email", new BsonInt32(1)))
                .append("limit", new BsonInt32(10))
                .append("lsid", lsid())
                .append("$db", new BsonString("shop"));
        assertArrayEquals(encode(expected), out, () -> new RawBsonDocument(out).toJson());
    }

    @ParameterizedTest
    @EnumSource(Backing.class)
    void replyUnderDefaultsKeepsCursorMetadata(final Backing backing) {
        BsonDocument reply = findReply(customers(3));
        byte[] out = replyBytes(RedactionPolicy.defaults(), "find", DriverShapes.byteBacked(reply, backing));
        BsonArray batch = new BsonArray();
        for (int i = 0; i < 3; i++) {
            batch.add(new BsonDocument("_id", s("?objectId")).append("name", s("?string")).append("email", s("?string"))
                    .append("n", s("?number")).append("tags", new BsonArray(List.of(s("?string"), s("?string"))))
                    .append("address", new BsonDocument("city", s("?string")).append("zip", s("?number"))));
        }
        BsonDocument expected = new BsonDocument("cursor", new BsonDocument("firstBatch", batch)
                .append("id", new BsonInt64(0)).append("ns", new BsonString("shop.customers")))
                .append("ok", new BsonDouble(1));
        assertArrayEquals(encode(expected), out, () -> new RawBsonDocument(out).toJson());
    }

    // ----------------------------------------------------------------------------------------------------------------------

    static byte[] startedBytes(final RedactionPolicy policy, final String name, final BsonDocument command) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        listener.commandStarted(DriverShapes.started(1, name, command));
        assertEquals(0, listener.getCounters().getRedactionFailures(), () -> last.started.getCommand().toJson());
        return ownedBytes(last.started.getCommand());
    }

    static byte[] replyBytes(final RedactionPolicy policy, final String name, final BsonDocument reply) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        listener.commandSucceeded(DriverShapes.succeeded(1, name, reply));
        assertEquals(0, listener.getCounters().getRedactionFailures(), () -> last.succeeded.getResponse().toJson());
        return ownedBytes(last.succeeded.getResponse());
    }

    static BsonString s(final String value) {
        return new BsonString(value);
    }

    static BsonDocument lsid() {
        return new BsonDocument("id", new BsonBinary(new UUID(0x1234_5678_9abc_def0L, 0x0fed_cba9_8765_4321L)));
    }

    static BsonDocument insertTop() {
        return new BsonDocument("insert", new BsonString("customers"))
                .append("ordered", BsonBoolean.TRUE)
                .append("lsid", lsid())
                .append("txnNumber", new BsonInt64(7))
                .append("$clusterTime", new BsonDocument("clusterTime", new BsonTimestamp(1_700_000_000, 3))
                        .append("signature", new BsonDocument("hash", new BsonBinary(new byte[20]))
                                .append("keyId", new BsonInt64(42))))
                .append("$db", new BsonString("shop"));
    }

    static List<BsonDocument> customers(final int count) {
        List<BsonDocument> documents = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            documents.add(new BsonDocument("_id", new BsonObjectId(new ObjectId(1_700_000_000, i)))
                    .append("name", new BsonString("Customer " + i))
                    .append("email", new BsonString("c" + i + "@example.com"))
                    .append("n", new BsonInt32(i))
                    .append("tags", new BsonArray(List.of(new BsonString("t" + i), new BsonString("x"))))
                    .append("address", new BsonDocument("city", new BsonString("City " + (i % 7)))
                            .append("zip", new BsonInt64(10_000L + i))));
        }
        return documents;
    }

    static BsonDocument findReply(final List<BsonDocument> batch) {
        return new BsonDocument("cursor", new BsonDocument("firstBatch", new BsonArray(new ArrayList<BsonValue>(batch)))
                .append("id", new BsonInt64(0)).append("ns", new BsonString("shop.customers")))
                .append("ok", new BsonDouble(1));
    }

    static BsonDocument everyTypeFind() {
        return new BsonDocument("find", new BsonString("customers"))
                .append("double", new BsonDouble(2.5))
                .append("string", new BsonString("caf\u00e9 \ud83d\ude00"))
                .append("document", new BsonDocument("a", new BsonInt32(1)).append("b", new BsonDocument()))
                .append("array", new BsonArray(List.of(new BsonInt32(1), new BsonString("two"), new BsonArray())))
                .append("binary", new BsonBinary(new byte[]{1, 2, 3}))
                .append("uuid", new BsonBinary(UUID.randomUUID()))
                .append("binaryOld", new BsonBinary(BsonBinarySubType.OLD_BINARY, new byte[]{9, 8}))
                .append("undefined", new BsonUndefined())
                .append("objectId", new BsonObjectId(new ObjectId()))
                .append("boolean", BsonBoolean.TRUE)
                .append("date", new BsonDateTime(1_700_000_000_000L))
                .append("null", BsonNull.VALUE)
                .append("regex", new BsonRegularExpression("^a.*@example\\.com$", "i"))
                .append("dbPointer", new BsonDbPointer("shop.customers", new ObjectId()))
                .append("javascript", new BsonJavaScript("function() { return 1; }"))
                .append("symbol", new BsonSymbol("sym"))
                .append("javascriptWithScope", new BsonJavaScriptWithScope("x + 1",
                        new BsonDocument("x", new BsonInt32(1))))
                .append("int32", new BsonInt32(-7))
                .append("timestamp", new BsonTimestamp(100, 2))
                .append("int64", new BsonInt64(Long.MIN_VALUE))
                .append("decimal128", new BsonDecimal128(Decimal128.parse("1.10")))
                .append("minKey", new BsonMinKey())
                .append("maxKey", new BsonMaxKey())
                .append("$db", new BsonString("shop"));
    }
}

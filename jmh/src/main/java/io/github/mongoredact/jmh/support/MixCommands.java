package io.github.mongoredact.jmh.support;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBinarySubType;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.ObjectId;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A typical command mix, as a client of a replica set (sessions, retryable writes) sends it with driver 5.x and as the driver
 * hands it to a listener. The fields each command has are those of the specification tests' expected events
 * ({@code command-logging-and-monitoring/tests/monitoring}: {@code find}, {@code updateOne}, {@code insertOne}) plus what the
 * driver appends to every command it sends ({@code CommandMessage}): {@code $db}, {@code $clusterTime} with its
 * {@code signature}, {@code lsid}, and {@code $readPreference} where the read preference is not {@code primary}; the write
 * commands carry {@code txnNumber} (retryable writes). The replies carry {@code $clusterTime} and {@code operationTime}, as a
 * replica set's do.
 *
 * <ul>
 *     <li>{@code findById}: {@code find(eq("_id", id)).first()}: {@code filter}, {@code limit: 1}, {@code singleBatch};
 *     held as one buffer (the driver's {@code ByteBufBsonDocument});</li>
 *     <li>{@code findIndexed}: {@code find(eq("customerId", id)).projection(...).limit(20)} with read preference
 *     {@code secondaryPreferred}; one buffer;</li>
 *     <li>{@code updateOne}: {@code updateOne(eq("_id", id), combine(set("status", ...), set("shippedAt", ...)))}: a plain
 *     top level with the {@code updates} sequence of one byte-backed document;</li>
 *     <li>{@code insertOne}: one order: a plain top level with the {@code documents} sequence of one byte-backed document;</li>
 *     <li>{@code aggregate}: {@code $match}, {@code $group}, {@code $sort}, {@code $limit} with read preference
 *     {@code secondaryPreferred}; one buffer;</li>
 *     <li>{@code getMore}: {@code {getMore, collection, batchSize: 100}} (one buffer), and its reply of 100 orders, a heap
 *     {@code RawBsonDocument}.</li>
 * </ul>
 *
 * <p>The orders are about 350 bytes: ids, a status, a total, a currency, a date, two order lines and an address. All values
 * are deterministic.</p>
 */
public final class MixCommands {
    /** The collection of the mix. */
    public static final String COLLECTION = "orders";
    /** The documents in the getMore reply. */
    public static final int GET_MORE_BATCH = 100;
    /** The documents in the reply of the find by an indexed field (its limit). */
    public static final int FIND_LIMIT = 20;
    private static final long CURSOR_ID = 7_512_345_678_901_234L;
    private static final BsonDocument SECONDARY_PREFERRED = new BsonDocument("mode", new BsonString("secondaryPreferred"));

    private MixCommands() {
    }

    /** The commands of the mix, each with the name the benchmarks' {@code command} parameter gives it. */
    public enum Command {
        /** A find by {@code _id}. */
        FIND_BY_ID("findById"),
        /** A find by an indexed field, with a projection and a limit, on a secondary. */
        FIND_INDEXED("findIndexed"),
        /** An update of one document by {@code _id} with {@code $set}. */
        UPDATE_ONE("updateOne"),
        /** An insert of one document. */
        INSERT_ONE("insertOne"),
        /** A small aggregation, on a secondary. */
        AGGREGATE("aggregate"),
        /** A getMore, whose reply holds 100 documents. */
        GET_MORE("getMore");

        private final String param;

        Command(final String param) {
            this.param = param;
        }

        /** @return the parameter value that names it */
        public String param() {
            return param;
        }

        /**
         * @param param a parameter value
         * @return the command it names
         */
        public static Command of(final String param) {
            for (Command c : values()) {
                if (c.param.equals(param)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("command=" + param);
        }
    }

    /**
     * @param i the index, which varies the values
     * @return an order of about 350 bytes
     */
    public static BsonDocument order(final int i) {
        BsonArray items = new BsonArray();
        for (int line = 0; line < 2; line++) {
            items.add(new BsonDocument("sku", new BsonString(String.format("SKU-%06d", (i * 7 + line) % 1_000_000)))
                    .append("qty", new BsonInt32(1 + (i + line) % 4))
                    .append("price", new BsonDouble(9.99 + (i + line) % 50)));
        }
        return new BsonDocument("_id", new BsonObjectId(objectId(i)))
                .append("customerId", new BsonObjectId(objectId(100_000 + i % 997)))
                .append("status", new BsonString(i % 4 == 0 ? "pending" : "shipped"))
                .append("total", new BsonDouble(19.98 + i % 500))
                .append("currency", new BsonString("EUR"))
                .append("createdAt", new BsonDateTime(1_700_000_000_000L + i * 60_000L))
                .append("items", items)
                .append("shipTo", new BsonDocument("name", new BsonString(String.format("Customer %05d", i % 997)))
                        .append("street", new BsonString((i % 200) + " Main Street"))
                        .append("city", new BsonString("Springfield"))
                        .append("zip", new BsonString(String.format("%05d", 10_000 + i % 89_999)))
                        .append("country", new BsonString("US")));
    }

    /**
     * @param command the command
     * @return its started event, as the driver hands it over
     */
    public static CommandStartedEvent started(final Command command) {
        return Inputs.started(name(command), command(command));
    }

    /**
     * @param command the command
     * @return the succeeded event of its reply, as the driver hands it over
     */
    public static CommandSucceededEvent succeeded(final Command command) {
        return Inputs.succeeded(name(command), reply(command));
    }

    /** @return the command's name, as the event carries it */
    static String name(final Command command) {
        switch (command) {
            case FIND_BY_ID:
            case FIND_INDEXED:
                return "find";
            case UPDATE_ONE:
                return "update";
            case INSERT_ONE:
                return "insert";
            case AGGREGATE:
                return "aggregate";
            default:
                return "getMore";
        }
    }

    /** @return the command as the driver hands it to a listener */
    static BsonDocument command(final Command command) {
        ObjectId id = objectId(42);
        switch (command) {
            case FIND_BY_ID:
                return DriverDocuments.byteBacked(session(new BsonDocument("find", new BsonString(COLLECTION))
                        .append("filter", new BsonDocument("_id", new BsonObjectId(id)))
                        .append("limit", new BsonInt32(1))
                        .append("singleBatch", BsonBoolean.TRUE), false));
            case FIND_INDEXED:
                return DriverDocuments.byteBacked(session(new BsonDocument("find", new BsonString(COLLECTION))
                        .append("filter", new BsonDocument("customerId", new BsonObjectId(objectId(100_042))))
                        .append("projection", new BsonDocument("status", new BsonInt32(1)).append("total", new BsonInt32(1))
                                .append("createdAt", new BsonInt32(1)))
                        .append("limit", new BsonInt32(FIND_LIMIT)), true));
            case UPDATE_ONE:
                BsonDocument update = new BsonDocument("q", new BsonDocument("_id", new BsonObjectId(id)))
                        .append("u", new BsonDocument("$set", new BsonDocument("status", new BsonString("shipped"))
                                .append("shippedAt", new BsonDateTime(1_700_000_900_000L))));
                return DriverDocuments.plainWithSequence(session(writeBody("update"), false), "updates",
                        Collections.singletonList(update));
            case INSERT_ONE:
                return DriverDocuments.plainWithSequence(session(writeBody("insert"), false), "documents",
                        Collections.singletonList(order(42)));
            case AGGREGATE:
                BsonArray pipeline = new BsonArray();
                pipeline.add(new BsonDocument("$match", new BsonDocument("status", new BsonString("shipped"))
                        .append("createdAt", new BsonDocument("$gte", new BsonDateTime(1_700_000_000_000L)))));
                pipeline.add(new BsonDocument("$group", new BsonDocument("_id", new BsonString("$customerId"))
                        .append("total", new BsonDocument("$sum", new BsonString("$total")))
                        .append("orders", new BsonDocument("$sum", new BsonInt32(1)))));
                pipeline.add(new BsonDocument("$sort", new BsonDocument("total", new BsonInt32(-1))));
                pipeline.add(new BsonDocument("$limit", new BsonInt32(10)));
                return DriverDocuments.byteBacked(session(new BsonDocument("aggregate", new BsonString(COLLECTION))
                        .append("pipeline", pipeline)
                        .append("cursor", new BsonDocument()), true));
            case GET_MORE:
                return DriverDocuments.byteBacked(session(new BsonDocument("getMore", new BsonInt64(CURSOR_ID))
                        .append("collection", new BsonString(COLLECTION))
                        .append("batchSize", new BsonInt32(GET_MORE_BATCH)), false));
            default:
                throw new IllegalArgumentException(command.name());
        }
    }

    /** @return the reply as the driver hands it to a listener: a heap {@code RawBsonDocument} */
    static RawBsonDocument reply(final Command command) {
        BsonDocument reply;
        switch (command) {
            case FIND_BY_ID:
                reply = cursor("firstBatch", Collections.singletonList(order(42)), 0);
                break;
            case FIND_INDEXED:
                List<BsonValue> projected = new ArrayList<>();
                for (int i = 0; i < FIND_LIMIT; i++) {
                    BsonDocument order = order(i * 997 + 42);
                    projected.add(new BsonDocument("_id", order.get("_id")).append("status", order.get("status"))
                            .append("total", order.get("total")).append("createdAt", order.get("createdAt")));
                }
                reply = cursor("firstBatch", projected, 0);
                break;
            case UPDATE_ONE:
                reply = new BsonDocument("n", new BsonInt32(1)).append("nModified", new BsonInt32(1))
                        .append("ok", new BsonDouble(1.0));
                break;
            case INSERT_ONE:
                reply = new BsonDocument("n", new BsonInt32(1)).append("ok", new BsonDouble(1.0));
                break;
            case AGGREGATE:
                List<BsonValue> groups = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    groups.add(new BsonDocument("_id", new BsonObjectId(objectId(100_000 + i)))
                            .append("total", new BsonDouble(4_321.5 - i * 97.25)).append("orders", new BsonInt32(40 - i)));
                }
                reply = cursor("firstBatch", groups, 0);
                break;
            case GET_MORE:
                List<BsonValue> batch = new ArrayList<>();
                for (int i = 0; i < GET_MORE_BATCH; i++) {
                    batch.add(order(1_000 + i));
                }
                reply = cursor("nextBatch", batch, CURSOR_ID);
                break;
            default:
                throw new IllegalArgumentException(command.name());
        }
        reply.append("$clusterTime", clusterTime()).append("operationTime", new BsonTimestamp(1_700_000_000, 3));
        return new RawBsonDocument(reply, new BsonDocumentCodec());
    }

    private static BsonDocument cursor(final String batchName, final List<BsonValue> batch, final long cursorId) {
        return new BsonDocument("cursor", new BsonDocument(batchName, new BsonArray(batch))
                .append("id", new BsonInt64(cursorId))
                .append("ns", new BsonString(Inputs.DATABASE + "." + COLLECTION)))
                .append("ok", new BsonDouble(1.0));
    }

    /** The command section of a retryable write, as the driver encodes it before appending its own fields. */
    private static BsonDocument writeBody(final String name) {
        return new BsonDocument(name, new BsonString(COLLECTION))
                .append("ordered", BsonBoolean.TRUE)
                .append("txnNumber", new BsonInt64(3));
    }

    /** Appends what the driver appends to every command it sends to a replica set, in its order. */
    private static BsonDocument session(final BsonDocument command, final boolean secondaryPreferred) {
        command.append("$db", new BsonString(Inputs.DATABASE))
                .append("$clusterTime", clusterTime())
                .append("lsid", new BsonDocument("id", new BsonBinary(BsonBinarySubType.UUID_STANDARD, new byte[]{
                        0x3f, 0x1c, 0x52, 0x0a, (byte) 0x9e, 0x47, 0x4b, 0x21, (byte) 0xa3, 0x6d, 0x17, 0x58, 0x2e,
                        (byte) 0xc4, 0x09, (byte) 0xb1})));
        if (secondaryPreferred) {
            command.append("$readPreference", SECONDARY_PREFERRED.clone());
        }
        return command;
    }

    private static BsonDocument clusterTime() {
        byte[] hash = new byte[20];
        for (int i = 0; i < hash.length; i++) {
            hash[i] = (byte) (i * 37 + 11);
        }
        return new BsonDocument("clusterTime", new BsonTimestamp(1_700_000_000, 3))
                .append("signature", new BsonDocument("hash", new BsonBinary(hash))
                        .append("keyId", new BsonInt64(7_300_000_000_000_000_001L)));
    }

    private static ObjectId objectId(final int i) {
        return new ObjectId(1_700_000_000 + i, i & 0xFFFFFF);
    }
}

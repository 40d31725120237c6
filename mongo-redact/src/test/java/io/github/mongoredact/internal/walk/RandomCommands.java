package io.github.mongoredact.internal.walk;

import org.bson.BsonArray;
import org.bson.BsonBinary;
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
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded generator of random commands and replies shaped like the driver's, holding values of every BSON type, with a
 * secret marker planted in every kind of user-data position: strings, binary of several subtypes, regex patterns, JavaScript
 * code (with and without scope), symbols, DBPointer namespaces, keys of {@code let} variables, sequence documents and reply
 * batches. The marker is 16 ASCII characters, so that it also fills a UUID binary exactly.
 */
final class RandomCommands {
    /** Keys of user documents: none of them is kept by the default rules at any depth. */
    private static final String[] KEYS = {"a", "b", "email", "name", "n", "_id", "addr", "tags", "city", "x.y", "\u00e9t\u00e9",
            "$eq", "$gt", "$in", "$and", "$or", "$not", "$exists", "$elemMatch", "$set", "$inc", "$push", "$expr"};
    private static final byte[] BINARY_SUBTYPES = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, (byte) 0x80};
    private static final String[] COMMANDS = {"find", "aggregate", "insert", "update", "delete", "findAndModify", "count",
            "distinct"};
    static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    final long seed;
    final Random random;
    final String marker;
    final byte[] markerBytes;
    /** Whether old binary (subtype 2) may be generated: not in a plain top level (see core-bugs.md #1). */
    private boolean allowOldBinary = true;
    private int planted;

    RandomCommands(final long seed) {
        this.seed = seed;
        this.random = new Random(seed);
        StringBuilder m = new StringBuilder("Zq");
        for (int i = 0; i < 14; i++) {
            m.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        this.marker = m.toString();
        this.markerBytes = marker.getBytes(StandardCharsets.UTF_8);
    }

    /** @return how many times the marker was planted so far */
    int planted() {
        return planted;
    }

    /** A generated command: its name, its plain top level (ending with {@code $db}) and its document sequences. */
    static final class Command {
        final String name;
        final BsonDocument top;
        final List<Object> sequences = new ArrayList<>();

        Command(final String name, final BsonDocument top) {
            this.name = name;
            this.top = top;
        }

        boolean hasSequences() {
            return !sequences.isEmpty();
        }

        Object[] sequencePairs() {
            return sequences.toArray();
        }
    }

    /** Kept metadata every generated command carries, to check it comes out intact. */
    BsonDocument lsid;
    BsonDocument writeConcern;
    BsonBoolean ordered;

    /** An ObjectId of the seed's bytes alone (the driver's other constructors mix in the process's random part). */
    private ObjectId objectId() {
        byte[] bytes = new byte[12];
        random.nextBytes(bytes);
        return new ObjectId(bytes);
    }

    Command command() {
        String name = COMMANDS[random.nextInt(COMMANDS.length)];
        BsonDocument top = new BsonDocument(name, new BsonString("coll" + random.nextInt(5)));
        Command command = new Command(name, top);
        boolean sequences = name.equals("insert") || name.equals("update") || name.equals("delete");
        allowOldBinary = !sequences;
        switch (name) {
            case "find":
                top.append("filter", document(0));
                if (random.nextBoolean()) {
                    top.append("sort", new BsonDocument("n", new BsonInt32(1)));
                }
                if (random.nextBoolean()) {
                    top.append("limit", new BsonInt32(random.nextInt(100)));
                }
                break;
            case "aggregate":
                top.append("pipeline", pipeline());
                top.append("cursor", new BsonDocument());
                break;
            case "findAndModify":
                top.append("query", document(0));
                top.append("update", new BsonDocument("$set", document(1)));
                top.append("new", BsonBoolean.valueOf(random.nextBoolean()));
                break;
            case "count":
                top.append("query", document(0));
                break;
            case "distinct":
                top.append("key", new BsonString("city"));
                top.append("query", document(0));
                break;
            default:
                break;
        }
        if (random.nextInt(3) == 0) {
            top.append("let", letVariables());
        }
        if (random.nextInt(3) == 0) {
            top.append("comment", plantedString());
        }
        if (random.nextInt(3) == 0) {
            // an unknown field: denied by default
            top.append("x_unknown", value(1));
        }
        if (planted == 0) {
            top.append("x_note", plantedValue());
        }
        ordered = BsonBoolean.valueOf(random.nextBoolean());
        top.append("ordered", ordered);
        lsid = new BsonDocument("id", new BsonBinary(new java.util.UUID(random.nextLong(), random.nextLong())));
        top.append("lsid", lsid);
        writeConcern = new BsonDocument("w", random.nextBoolean() ? new BsonString("majority") : new BsonInt32(1))
                .append("wtimeout", new BsonInt32(random.nextInt(1000)));
        top.append("writeConcern", writeConcern);
        top.append("$db", new BsonString("db" + random.nextInt(3)));
        allowOldBinary = true;
        if (sequences) {
            int count = random.nextInt(8);
            List<BsonDocument> documents = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                switch (name) {
                    case "insert":
                        documents.add(plantedDocument(0));
                        break;
                    case "update":
                        documents.add(new BsonDocument("q", plantedDocument(1)).append("u", new BsonDocument("$set",
                                plantedDocument(2))).append("multi", BsonBoolean.valueOf(random.nextBoolean()))
                                .append("upsert", BsonBoolean.valueOf(random.nextBoolean())));
                        break;
                    default:
                        documents.add(new BsonDocument("q", plantedDocument(1)).append("limit",
                                new BsonInt32(random.nextInt(2))));
                        break;
                }
            }
            command.sequences.add(name.equals("insert") ? "documents" : name.equals("update") ? "updates" : "deletes");
            command.sequences.add(documents);
        }
        return command;
    }

    /** A find / getMore reply with a planted batch, sometimes with write errors quoting the marker. */
    BsonDocument reply() {
        BsonArray batch = new BsonArray();
        int count = random.nextInt(8);
        for (int i = 0; i < count; i++) {
            batch.add(plantedDocument(0));
        }
        BsonDocument reply = new BsonDocument("cursor", new BsonDocument(random.nextBoolean() ? "firstBatch" : "nextBatch", batch)
                .append("id", new BsonInt64(random.nextLong())).append("ns", new BsonString("db.coll")));
        if (random.nextInt(4) == 0) {
            reply.append("writeErrors", new BsonArray(List.of(new BsonDocument("index", new BsonInt32(0))
                    .append("code", new BsonInt32(11000)).append("codeName", new BsonString("DuplicateKey"))
                    .append("errmsg", new BsonString("E11000 duplicate key error collection: db.coll index: email_1 dup key:"
                            + " { email: \"" + marker + "\" }"))
                    .append("keyValue", new BsonDocument("email", plantedString())))));
            planted += 2;
        }
        if (random.nextInt(3) == 0) {
            reply.append("x_unknown", value(1));
        }
        reply.append("ok", new BsonDouble(1));
        return reply;
    }

    private BsonArray pipeline() {
        BsonArray stages = new BsonArray();
        stages.add(new BsonDocument("$match", document(1)));
        if (random.nextBoolean()) {
            BsonDocument lookup = new BsonDocument("from", new BsonString("other")).append("let", letVariables())
                    .append("pipeline", new BsonArray(List.of(new BsonDocument("$match", document(3)))))
                    .append("as", new BsonString("joined"));
            stages.add(new BsonDocument("$lookup", lookup));
        }
        if (random.nextBoolean()) {
            stages.add(new BsonDocument("$group", new BsonDocument("_id", new BsonString("$city"))
                    .append("total", new BsonDocument("$sum", plantedString()))));
        }
        if (random.nextBoolean()) {
            stages.add(new BsonDocument("$limit", new BsonInt32(5)));
        }
        return stages;
    }

    /** {@code let} variables: user-named keys holding the marker. */
    private BsonDocument letVariables() {
        BsonDocument let = new BsonDocument();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            let.append("v" + i + marker, random.nextBoolean() ? plantedString() : value(2));
            planted++;
        }
        return let;
    }

    /** A document that certainly holds the marker somewhere. */
    BsonDocument plantedDocument(final int depth) {
        BsonDocument document = document(depth);
        document.append("s", plantedValue());
        return document;
    }

    BsonDocument document(final int depth) {
        BsonDocument document = new BsonDocument();
        int count = random.nextInt(depth >= 3 ? 2 : 5);
        for (int i = 0; i < count; i++) {
            String key = KEYS[random.nextInt(KEYS.length)] + (random.nextInt(4) == 0 ? String.valueOf(i) : "");
            if (!document.containsKey(key)) {
                document.append(key, value(depth + 1));
            }
        }
        return document;
    }

    BsonValue value(final int depth) {
        int type = random.nextInt(depth >= 4 ? 19 : 21);
        switch (type) {
            case 0:
                return new BsonDouble(random.nextDouble() * 1000);
            case 1:
            case 2:
                return random.nextBoolean() ? plantedString() : new BsonString("v" + random.nextInt(100));
            case 3:
                return random.nextBoolean() ? plantedValue() : new BsonInt32(random.nextInt());
            case 4:
                return binary();
            case 5:
                return new BsonUndefined();
            case 6:
                return new BsonObjectId(objectId());
            case 7:
                return BsonBoolean.valueOf(random.nextBoolean());
            case 8:
                return new BsonDateTime(random.nextLong());
            case 9:
                return BsonNull.VALUE;
            case 10:
                planted++;
                return new BsonRegularExpression("^" + marker + ".*", random.nextBoolean() ? "i" : "imx");
            case 11:
                planted++;
                return new BsonDbPointer("db." + marker, objectId());
            case 12:
                planted++;
                return new BsonJavaScript("function() { return '" + marker + "'; }");
            case 13:
                planted++;
                return new BsonSymbol(marker);
            case 14:
                planted++;
                return new BsonJavaScriptWithScope("x + '" + marker + "'", new BsonDocument("x", plantedString()));
            case 15:
                return new BsonInt32(random.nextInt());
            case 16:
                return new BsonTimestamp(random.nextInt(Integer.MAX_VALUE), random.nextInt(1000));
            case 17:
                return new BsonInt64(random.nextLong());
            case 18:
                return random.nextBoolean() ? new BsonDecimal128(new Decimal128(BigDecimal.valueOf(random.nextLong(), 3)))
                        : random.nextBoolean() ? new BsonMinKey() : new BsonMaxKey();
            case 19:
                return document(depth);
            default:
                BsonArray array = new BsonArray();
                int count = random.nextInt(4);
                for (int i = 0; i < count; i++) {
                    array.add(value(depth + 1));
                }
                return array;
        }
    }

    /** One of the scalar user-data kinds, holding the marker. */
    BsonValue plantedValue() {
        switch (random.nextInt(7)) {
            case 0:
                return binary();
            case 1:
                planted++;
                return new BsonRegularExpression(marker);
            case 2:
                planted++;
                return new BsonSymbol("s" + marker);
            case 3:
                planted++;
                return new BsonJavaScript(marker);
            case 4:
                planted++;
                return new BsonDbPointer("shop." + marker, objectId());
            default:
                return plantedString();
        }
    }

    BsonString plantedString() {
        planted++;
        switch (random.nextInt(3)) {
            case 0:
                return new BsonString(marker);
            case 1:
                return new BsonString("mail " + marker + "@example.com \u00e9\ud83d\ude00");
            default:
                return new BsonString("\"" + marker + "\"");
        }
    }

    /** Binary of a random subtype whose data is the marker's bytes (exactly, for the 16-byte UUID subtypes). */
    BsonBinary binary() {
        byte subtype;
        do {
            subtype = BINARY_SUBTYPES[random.nextInt(BINARY_SUBTYPES.length)];
        } while (subtype == 0x02 && !allowOldBinary);
        planted++;
        if (subtype == 0x03 || subtype == 0x04) {
            return new BsonBinary(subtype, markerBytes.clone());
        }
        byte[] data = new byte[markerBytes.length + random.nextInt(4)];
        random.nextBytes(data);
        System.arraycopy(markerBytes, 0, data, random.nextInt(data.length - markerBytes.length + 1), markerBytes.length);
        return new BsonBinary(subtype, data);
    }
}

package io.github.mongoredact;

import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Random commands built from two seeds: the shape seed decides the command, its collection and database, every key, operator
 * and type; the value seed decides every value (numbers of any width, strings, ids...), the names of users in the first field
 * of user commands, the data in keys that look like data ({@code prefs.<e-mail>}) and the session fields. So two commands of
 * one shape seed differ only in values and masked keys, and {@link #mutateAt} changes one decision of the shape where the
 * fingerprint looks (not past the first element of an array, not in session fields), so that the command has another shape.
 * {@link #shape} is an oracle written apart from the walker: the shape as the fingerprint's definition states it.
 */
final class ShapedCommands {
    static final String[] COLLECTION_COMMANDS = {"find", "aggregate", "insert", "update", "delete", "count", "distinct",
            "findAndModify", "getMore"};
    static final String[] VALUE_COMMANDS = {"usersInfo", "dropUser", "grantRolesToUser", "revokeRolesFromUser", "createRole",
            "rolesInfo", "logApplicationMessage", "eval", "myCommand"};
    private static final String[] KEYS = {"email", "name", "firstName", "age", "address.zip", "items.0.qty", "tags", "_id",
            "status", "createdAt", "total", "city"};
    private static final String[] OPERATORS = {"$eq", "$ne", "$gt", "$gte", "$lt", "$in", "$exists", "$regex"};
    private static final String[] STAGES = {"$match", "$project", "$sort", "$limit", "$group", "$addFields"};
    private static final int SCALARS = 9;

    private final Random shape;
    private final Random values;
    private final int mutateAt;
    private int decisions;
    /** Whether the decision being made is one the fingerprint looks at. */
    private boolean covered = true;
    /** Whether a key that looks like data was planted. */
    boolean dataLikeKeys;

    /**
     * @param shapeSeed the seed of the shape
     * @param valueSeed the seed of the values
     * @param mutateAt the covered decision to change (counted from 1), or 0 for none
     */
    ShapedCommands(final long shapeSeed, final long valueSeed, final int mutateAt) {
        this.shape = new Random(shapeSeed);
        this.values = new Random(valueSeed);
        this.mutateAt = mutateAt;
    }

    /** @return how many covered decisions the last command took */
    int decisions() {
        return decisions;
    }

    /** An ObjectId of the value seed's bytes alone (the driver's other constructors mix in the process's random part). */
    private ObjectId objectId() {
        byte[] bytes = new byte[12];
        values.nextBytes(bytes);
        return new ObjectId(bytes);
    }

    private int choose(final int n) {
        int choice = shape.nextInt(n);
        if (covered) {
            decisions++;
            if (decisions == mutateAt && n > 1) {
                return (choice + 1 + values.nextInt(n - 1)) % n;
            }
        }
        return choice;
    }

    /** A command, with its document sequence (insert, update, delete) merged as an array. */
    BsonDocument command() {
        int kind = choose(3);
        BsonDocument command = kind == 0 ? valueCommand() : kind == 1 && choose(4) == 0 ? explain() : collectionCommand(
                COLLECTION_COMMANDS[choose(COLLECTION_COMMANDS.length)]);
        command.append("$db", new BsonString("db" + choose(3)));
        boolean wasCovered = covered;
        covered = false;
        if (values.nextBoolean()) {
            command.append("lsid", new BsonDocument("id", new BsonBinary(new UUID(values.nextLong(), values.nextLong()))));
            command.append("txnNumber", new BsonInt64(values.nextInt(100)));
            command.append("$clusterTime", new BsonDocument("clusterTime", new BsonTimestamp(values.nextInt(), 1)));
        }
        covered = wasCovered;
        // a document sequence comes after the top level, as the driver merges it
        for (String sequence : new String[]{"documents", "updates", "deletes"}) {
            BsonValue documents = command.remove(sequence);
            if (documents != null) {
                command.append(sequence, documents);
            }
        }
        return command;
    }

    private BsonDocument valueCommand() {
        String name = VALUE_COMMANDS[choose(VALUE_COMMANDS.length)];
        BsonValue first = choose(4) == 0 ? new BsonDocument("user", string()).append("db", string()) : scalar(choose(SCALARS));
        BsonDocument command = new BsonDocument(name, first);
        if (choose(2) == 0) {
            command.append("roles", array(1));
        }
        return command;
    }

    private BsonDocument explain() {
        String inner = new String[]{"find", "aggregate", "count", "distinct", "findAndModify", "update", "delete"}[
                choose(7)];
        BsonDocument command = new BsonDocument("explain", collectionCommand(inner));
        return command.append("verbosity", string());
    }

    private BsonDocument collectionCommand(final String name) {
        BsonDocument command = new BsonDocument(name, name.equals("getMore") ? new BsonInt64(values.nextLong())
                : new BsonString("coll" + choose(4)));
        switch (name) {
            case "find":
                command.append("filter", filter(2));
                if (choose(2) == 0) {
                    command.append("sort", new BsonDocument(key(0), new BsonInt32(values.nextBoolean() ? 1 : -1)));
                }
                if (choose(2) == 0) {
                    command.append("projection", new BsonDocument(key(0), new BsonInt32(values.nextInt(2))));
                }
                command.append("limit", number());
                break;
            case "aggregate":
                BsonArray pipeline = new BsonArray();
                int stages = 1 + choose(3);
                for (int i = 0; i < stages; i++) {
                    boolean wasCovered = covered;
                    covered = wasCovered && i == 0;
                    pipeline.add(new BsonDocument(STAGES[choose(STAGES.length)], document(1)));
                    covered = wasCovered;
                }
                command.append("pipeline", pipeline).append("cursor", new BsonDocument());
                break;
            case "insert":
                command.append("ordered", BsonBoolean.valueOf(values.nextBoolean()));
                command.append("documents", documents(() -> document(2)));
                break;
            case "update":
                command.append("updates", documents(() -> new BsonDocument("q", filter(1)).append("u",
                        new BsonDocument(choose(2) == 0 ? "$set" : "$inc", document(1)))
                        .append("multi", BsonBoolean.valueOf(values.nextBoolean()))));
                break;
            case "delete":
                command.append("deletes", documents(() -> new BsonDocument("q", filter(1))
                        .append("limit", new BsonInt32(values.nextInt(2)))));
                break;
            case "count":
                command.append("query", filter(1));
                break;
            case "distinct":
                command.append("key", string()).append("query", filter(1));
                break;
            case "findAndModify":
                command.append("query", filter(1)).append("update", new BsonDocument("$set", document(1)))
                        .append("new", BsonBoolean.valueOf(values.nextBoolean()));
                break;
            default:
                command.append("collection", new BsonString("coll" + choose(4))).append("batchSize", number());
                break;
        }
        return command;
    }

    private interface Maker {
        BsonDocument make();
    }

    /** 1 to 4 documents: the fingerprint looks at the first only. */
    private BsonArray documents(final Maker maker) {
        BsonArray array = new BsonArray();
        int n = 1 + values.nextInt(4);
        boolean wasCovered = covered;
        for (int i = 0; i < n; i++) {
            covered = wasCovered && i == 0;
            if (i > 0) {
                // the other documents have their own shapes: nothing of them counts
                Random saved = new Random(values.nextLong());
                array.add(new ShapedCommands(saved.nextLong(), saved.nextLong(), 0).document(2));
            } else {
                array.add(maker.make());
            }
        }
        covered = wasCovered;
        return array;
    }

    private BsonDocument filter(final int depth) {
        BsonDocument filter = new BsonDocument();
        int n = 1 + choose(3);
        for (int i = 0; i < n; i++) {
            String key = key(i);
            int form = choose(3);
            if (form == 0) {
                filter.append(key, scalar(choose(SCALARS)));
            } else if (form == 1) {
                filter.append(key, new BsonDocument(OPERATORS[choose(OPERATORS.length)], scalar(choose(SCALARS))));
            } else {
                filter.append(i == 0 ? "$or" : "$and" + i, depth > 0 ? new BsonArray(List.of(filter(depth - 1)))
                        : array(1));
            }
        }
        return filter;
    }

    private BsonDocument document(final int depth) {
        BsonDocument document = new BsonDocument();
        int n = 1 + choose(4);
        for (int i = 0; i < n; i++) {
            int form = choose(depth > 0 ? 8 : 6);
            String key = form == 5 ? dataLikeKey(i) : key(i);
            BsonValue value = form == 6 ? document(depth - 1) : form == 7 ? array(depth - 1) : scalar(choose(SCALARS));
            document.append(key, value);
        }
        return document;
    }

    /** A key of the shape's vocabulary, made distinct within its document by its position. */
    private String key(final int position) {
        return KEYS[choose(KEYS.length)] + (position == 0 ? "" : "_" + position);
    }

    /** A key holding an e-mail address in one of its segments: the address is a value, the rest of the key shape. */
    private String dataLikeKey(final int position) {
        dataLikeKeys = true;
        String address = "u" + values.nextInt(1_000_000) + "@example.com";
        String prefix = new String[]{"prefs", "wallet", "stats.day"}[choose(3)] + position;
        return choose(2) == 0 ? prefix + "." + address : prefix + "." + address + ".count";
    }

    private BsonArray array(final int depth) {
        BsonArray array = new BsonArray();
        int n = values.nextInt(4);
        boolean wasCovered = covered;
        int type = choose(SCALARS + (depth > 0 ? 1 : 0));
        for (int i = 0; i < n; i++) {
            covered = wasCovered && i == 0;
            array.add(type == SCALARS ? document(depth - 1) : scalar(i == 0 ? type : values.nextInt(SCALARS)));
        }
        covered = wasCovered;
        return array;
    }

    /** A value of one of {@link #SCALARS} kinds: the kind is the shape's, the value and its width are the values'. */
    private BsonValue scalar(final int kind) {
        switch (kind) {
            case 0: return string();
            case 1: return number();
            case 2: return BsonBoolean.valueOf(values.nextBoolean());
            case 3: return new BsonDateTime(values.nextLong());
            case 4: return new BsonObjectId(objectId());
            case 5: return BsonNull.VALUE;
            case 6: return new BsonBinary(new byte[]{(byte) values.nextInt(), (byte) values.nextInt()});
            case 7: return new BsonRegularExpression("^" + values.nextInt(), values.nextBoolean() ? "i" : "");
            default: return new BsonTimestamp(values.nextInt(), values.nextInt(100));
        }
    }

    private BsonString string() {
        return new BsonString(values.nextBoolean() ? "grace" + values.nextInt(1000) + "@navy.example"
                : Long.toString(values.nextLong(), 36));
    }

    private BsonValue number() {
        switch (values.nextInt(4)) {
            case 0: return new BsonInt32(values.nextInt(1000));
            case 1: return new BsonInt64(values.nextLong());
            case 2: return new BsonDouble(values.nextDouble());
            default: return new BsonDecimal128(new Decimal128(BigDecimal.valueOf(values.nextInt(), 2)));
        }
    }

    // ------------------------------------------------------------------------------------------------------------------------
    // the oracle

    private static final List<String> NAMESPACE_COMMANDS = List.of("find", "aggregate", "insert", "update", "delete", "count",
            "distinct", "findAndModify");

    /**
     * The shape of a command as the fingerprint's definition states it: the command name, the namespace (the collection of a
     * command that names one, {@code $db}, {@code collection} of {@code getMore}), every key (one holding an e-mail address
     * as {@code ?key} when {@code masked}), every type (numbers one type) and no value; an array by its first element;
     * the session fields left out; the command {@code explain} wraps as a command of its own.
     */
    static String shape(final BsonDocument command, final boolean masked) {
        StringBuilder out = new StringBuilder();
        top(command, masked, true, out);
        return out.toString();
    }

    private static void top(final BsonDocument command, final boolean masked, final boolean outer, final StringBuilder out) {
        out.append('{');
        String name = command.getFirstKey();
        for (String key : command.keySet()) {
            BsonValue value = command.get(key);
            if (outer && (key.equals("lsid") || key.equals("txnNumber") || key.equals("$clusterTime"))) {
                continue;
            }
            out.append(key(key, masked)).append(':');
            boolean namespace = value.isString() && ((key.equals(name) && NAMESPACE_COMMANDS.contains(name))
                    || (outer && key.equals("$db")) || (outer && key.equals("collection") && name.equals("getMore")));
            if (namespace) {
                out.append('=').append(value.asString().getValue());
            } else if (outer && key.equals(name) && name.equals("explain") && value.isDocument()) {
                top(value.asDocument(), masked, false, out);
            } else {
                value(value, masked, out);
            }
            out.append(',');
        }
        out.append('}');
    }

    private static void value(final BsonValue value, final boolean masked, final StringBuilder out) {
        if (value.isDocument()) {
            out.append('{');
            for (String key : value.asDocument().keySet()) {
                out.append(key(key, masked)).append(':');
                value(value.asDocument().get(key), masked, out);
                out.append(',');
            }
            out.append('}');
        } else if (value.isArray()) {
            out.append('[');
            if (!value.asArray().isEmpty()) {
                value(value.asArray().get(0), masked, out);
            }
            out.append(']');
        } else {
            out.append(value.isNumber() || value.isDecimal128() ? "number" : value.getBsonType().name());
        }
    }

    private static String key(final String key, final boolean masked) {
        if (!masked) {
            return key;
        }
        if (key.contains("@")) {
            // an address has dots of its own: the key is masked whole
            return "?key";
        }
        List<String> segments = new ArrayList<>();
        for (String segment : key.split("\\.", -1)) {
            segments.add(segment.contains("@") ? "?key" : segment);
        }
        return String.join(".", segments);
    }
}

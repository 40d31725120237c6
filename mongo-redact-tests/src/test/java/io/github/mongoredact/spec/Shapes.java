package io.github.mongoredact.spec;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.ServerAddress;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.DriverShapes;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The documents of constructed events: the command the driver would send for an operation (in the driver's shapes: byte-backed,
 * or with document sequences appended as arrays), and the reply or failure a real server would answer, where a test's
 * expectations do not spell them out (sensitive commands, whose expectations only say what must be gone).
 */
final class Shapes {
    /** Text that a real server's answer to a sensitive command would carry, and no redacted failure may show. */
    static final String SECRET = "QZX-private-9f2c";
    static final ServerAddress ADDRESS = new ServerAddress("127.0.0.1", 27017);

    private Shapes() {
    }

    /** The expected document with every operator replaced by a value it accepts ({@code $$exists: false}: absent). */
    static BsonDocument materialize(final BsonDocument expected) {
        if (expected.size() == 1 && expected.getFirstKey().startsWith("$$")) {
            return materializeValue(expected).asDocument();
        }
        BsonDocument document = new BsonDocument();
        for (Map.Entry<String, BsonValue> entry : expected.entrySet()) {
            BsonValue value = entry.getValue();
            if (value.isDocument() && value.asDocument().containsKey("$$exists")
                    && !value.asDocument().getBoolean("$$exists").getValue()) {
                continue;
            }
            document.put(entry.getKey(), materializeValue(value));
        }
        return document;
    }

    private static BsonValue materializeValue(final BsonValue value) {
        if (value.isArray()) {
            BsonArray array = new BsonArray();
            for (BsonValue element : value.asArray()) {
                array.add(materializeValue(element));
            }
            return array;
        }
        if (!value.isDocument()) {
            return value;
        }
        BsonDocument document = value.asDocument();
        if (document.size() == 1 && document.getFirstKey().startsWith("$$")) {
            BsonValue argument = document.get(document.getFirstKey());
            switch (document.getFirstKey()) {
                case "$$unsetOrMatches":
                case "$$matchAsRoot":
                case "$$matchAsDocument":
                    return materializeValue(argument);
                case "$$type":
                    return sample(argument.isArray() ? argument.asArray().get(0).asString().getValue()
                            : argument.asString().getValue());
                case "$$exists":
                    return new BsonString("present");
                default:
                    throw new UnsupportedOperationException("cannot construct a value for " + document);
            }
        }
        return materialize(document);
    }

    private static BsonValue sample(final String type) {
        switch (type) {
            case "int": return new BsonInt32(1);
            case "long": return new BsonInt64(1);
            case "double": return new BsonDouble(1);
            case "string": return new BsonString("x");
            case "array": return new BsonArray(List.of(new BsonDocument("index", new BsonInt32(0))
                    .append("code", new BsonInt32(11000)).append("errmsg", new BsonString("E11000 duplicate key error"))));
            case "object": return new BsonDocument();
            case "bool": return BsonBoolean.TRUE;
            default: throw new UnsupportedOperationException("cannot construct a value of $$type " + type);
        }
    }

    /**
     * The driver's shape of a command: byte-backed, or, for commands with document sequences (insert, update, delete, client
     * bulkWrite), the plain top level with each sequence appended as an array of byte-backed documents.
     */
    static BsonDocument driverShape(final BsonDocument command) {
        BsonDocument top = command.clone();
        List<Object> sequences = new ArrayList<>();
        for (String sequence : new String[]{"documents", "updates", "deletes", "ops", "nsInfo"}) {
            if (top.containsKey(sequence) && top.get(sequence).isArray()) {
                List<BsonDocument> list = new ArrayList<>();
                for (BsonValue document : top.remove(sequence).asArray()) {
                    list.add(document.asDocument());
                }
                sequences.add(sequence);
                sequences.add(list);
            }
        }
        if (sequences.isEmpty()) {
            return DriverShapes.byteBacked(command, DriverShapes.Backing.BYTE_BUF_HEAP);
        }
        return DriverShapes.withSequences(top, DriverShapes.Backing.BYTE_BUF_HEAP, sequences.toArray());
    }

    /**
     * The command the driver sends for an operation's command {@code commandName}, when the test does not spell it out.
     */
    static BsonDocument command(final String commandName, final BsonDocument operation, final String collection) {
        BsonDocument arguments = operation.getDocument("arguments", new BsonDocument());
        BsonDocument command = new BsonDocument();
        switch (commandName) {
            case "insert":
                command.append("insert", new BsonString(collection)).append("ordered", BsonBoolean.TRUE)
                        .append("documents", new BsonArray(List.of(arguments.getDocument("document", new BsonDocument()))));
                break;
            case "find":
                command.append("find", new BsonString(collection)).append("filter", arguments.getDocument("filter",
                        new BsonDocument()));
                break;
            case "commitTransaction":
            case "abortTransaction":
                command.append(commandName, new BsonInt32(1)).append("txnNumber", new BsonInt64(1))
                        .append("autocommit", BsonBoolean.FALSE);
                break;
            default:
                command.append(commandName, new BsonInt32(1));
        }
        if (arguments.containsKey("session") || commandName.endsWith("Transaction")) {
            command.append("lsid", new BsonDocument("id", new BsonBinary(java.util.UUID.nameUUIDFromBytes(
                    SECRET.getBytes(StandardCharsets.UTF_8)))));
        }
        return command;
    }

    /** The reply a real server gives to the commands the embedded server lacks, or null. */
    @Nullable
    static BsonDocument serverReply(final String commandName, final BsonDocument command) {
        BsonDocument reply = new BsonDocument();
        if (commandName.equals("hello") || commandName.equalsIgnoreCase("ismaster")) {
            reply.append(commandName.equals("hello") ? "isWritablePrimary" : "ismaster", BsonBoolean.TRUE)
                    .append("helloOk", BsonBoolean.TRUE).append("maxWireVersion", new BsonInt32(21))
                    .append("connectionId", new BsonInt32(27));
            if (command.containsKey("speculativeAuthenticate")) {
                reply.append("speculativeAuthenticate", new BsonDocument("conversationId", new BsonInt32(1))
                        .append("done", BsonBoolean.FALSE)
                        .append("payload", new BsonBinary(("r=" + SECRET + ",s=c2FsdA==,i=15000").getBytes(
                                StandardCharsets.UTF_8))));
            }
        } else if (commandName.equals("getnonce")) {
            reply.append("nonce", new BsonString(SECRET));
        } else {
            return null;
        }
        return reply.append("ok", new BsonDouble(1));
    }

    /** A server's failure of the command: sensitive ones quote what they were sent, as real servers may. */
    static MongoCommandException serverFailure(final String commandName) {
        BsonDocument response = new BsonDocument("ok", new BsonDouble(0));
        switch (commandName) {
            case "find":
                response.append("errmsg", new BsonString("$or must be an array")).append("code", new BsonInt32(2))
                        .append("codeName", new BsonString("BadValue"));
                break;
            case "update":
                response.append("errmsg", new BsonString("Unrecognized pipeline stage name: '$invalidOperator'"))
                        .append("code", new BsonInt32(40324)).append("codeName", new BsonString("Location40324"));
                break;
            default:
                response.append("errmsg", new BsonString("Authentication failed for " + SECRET))
                        .append("code", new BsonInt32(18)).append("codeName", new BsonString("AuthenticationFailed"));
        }
        response.append("errorLabels", new BsonArray(List.of(new BsonString("NoWritesPerformed"))))
                .append("$clusterTime", new BsonDocument("clusterTime", new org.bson.BsonTimestamp(1, 1)));
        return new MongoCommandException(new RawBsonDocument(response, new org.bson.codecs.BsonDocumentCodec()), ADDRESS);
    }

    /** A network error, as the driver raises when the server closes the connection. */
    static MongoSocketReadException networkFailure() {
        return new MongoSocketReadException("Prematurely reached end of stream", ADDRESS);
    }
}

package io.github.mongoredact.deny;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoClientException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoCursorNotFoundException;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteConcernResult;
import com.mongodb.WriteError;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.bulk.BulkWriteInsert;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.bulk.BulkWriteUpsert;
import com.mongodb.bulk.WriteConcernError;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.codecs.configuration.CodecConfigurationException;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;

/**
 * The failures a command event can carry, quoting planted values the way the server's texts do: duplicate keys, immutable
 * {@code _id}, invalid regular expressions, prose with apostrophes, plain-text {@code $err}; write, bulk write and write
 * concern exceptions with details and upserted or inserted ids; cursor-not-found and time-out failures; a wrapper whose cause
 * is a command failure; client exceptions of the driver, an application's exception (as its codec throws it, also inside the
 * driver's codec error) and a JDK exception in a cause chain, each printing planted values unquoted.
 */
final class Failures {
    static final ServerAddress ADDRESS = new ServerAddress("127.0.0.1", 27017);
    static final String[] KINDS = {"command", "write", "bulkWrite", "writeConcern", "cursorNotFound", "executionTimeout",
            "wrappedCommand", "client", "application", "codec", "jdkCause"};

    private final Planted planted;
    private final Replies replies;

    /** An application's exception, as a codec of its own throws it. */
    static final class ApplicationFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ApplicationFailure(final String message, final Throwable cause) {
            super(message, cause);
        }
    }

    Failures(final UserData data, final Replies replies) {
        this.planted = data.planted();
        this.replies = replies;
    }

    Throwable make(final String kind) {
        switch (kind) {
            case "command": return command();
            case "write": return write();
            case "bulkWrite": return bulkWrite();
            case "writeConcern": return writeConcern();
            case "cursorNotFound": return cursorNotFound();
            case "executionTimeout": return executionTimeout();
            case "wrappedCommand": return new MongoException("Exception sending message", command());
            case "client": return new MongoClientException("Invalid status " + planted.text() + " for order "
                    + planted.int64().getValue() + " of " + planted.text());
            case "application": return new ApplicationFailure("Invalid status " + planted.text(), command());
            case "codec": return new CodecConfigurationException("Decoding into a '" + planted.text() + "' failed: "
                    + planted.text(), new ApplicationFailure(planted.text() + " " + planted.int32().getValue(), null));
            case "jdkCause": return new MongoSocketReadException("Exception receiving message", ADDRESS,
                    new IllegalArgumentException("For input string: " + planted.text() + " " + planted.dbl().getValue()));
            default: throw new IllegalArgumentException(kind);
        }
    }

    /** A server message quoting a planted value, in one of the server's phrasings. */
    String serverMessage() {
        switch (planted.nextInt(6)) {
            case 0:
                return "Plan executor error during findAndModify :: caused by :: E11000 duplicate key error collection: "
                        + "shop.users index: email_1 dup key: { email: \"" + planted.text() + "\" }";
            case 1:
                return "After applying the update, the (immutable) field '_id' was found to have been altered to _id: "
                        + planted.int64().getValue();
            case 2:
                return "Regular expression is invalid: missing ) Unclosed group near index 11 " + planted.text() + "((";
            case 3:
                return "Can't extract geo keys: { _id: ObjectId('" + planted.objectId().getValue().toHexString()
                        + "'), loc: '" + planted.text() + "' } can't project geometry";
            case 4:
                return "cannot compare to undefined in $expr with " + planted.text() + " at amount "
                        + planted.dbl().getValue();
            default:
                return "Executor error during find command :: caused by :: operation exceeded time limit while matching "
                        + "{ createdAt: new Date(" + planted.date().getValue() + ") }";
        }
    }

    BsonDocument errorResponse(final int code, final String codeName) {
        String message = serverMessage();
        BsonDocument response = new BsonDocument("ok", new BsonDouble(0)).append("errmsg", new BsonString(message))
                .append("code", new BsonInt32(code)).append("codeName", new BsonString(codeName));
        if (planted.chance(40)) {
            response.append("$err", new BsonString(serverMessage()));
        }
        if (planted.chance(50)) {
            response.append("errorLabels", new BsonArray(Collections.singletonList(new BsonString("TransientTransactionError"))));
        }
        if (planted.chance(50)) {
            response.append("keyValue", new BsonDocument("email", planted.scalar()));
        }
        return response;
    }

    MongoCommandException command() {
        return new MongoCommandException(errorResponse(11000, "DuplicateKey"), ADDRESS);
    }

    MongoWriteException write() {
        BsonDocument details = new BsonDocument("keyValue", new BsonDocument("email", planted.scalar()));
        return new MongoWriteException(new WriteError(11000, serverMessage(), details), ADDRESS);
    }

    MongoBulkWriteException bulkWrite() {
        BsonDocument dup = replies.duplicateKeyError(0);
        BsonDocument invalid = replies.validationError(1);
        BulkWriteError first = new BulkWriteError(11000, dup.getString("errmsg").getValue(),
                new BsonDocument("keyValue", dup.getDocument("keyValue")), 0);
        BulkWriteError second = new BulkWriteError(121, "Document failed validation: " + planted.text(),
                invalid.getDocument("errInfo"), 1);
        BulkWriteResult result = BulkWriteResult.acknowledged(1, 2, 0, 1,
                Collections.singletonList(new BulkWriteUpsert(2, planted.objectId())),
                Collections.singletonList(new BulkWriteInsert(3, planted.string())));
        return new MongoBulkWriteException(result, Arrays.asList(first, second), concernError(), ADDRESS,
                new HashSet<>(Collections.singletonList("RetryableWriteError")));
    }

    WriteConcernError concernError() {
        BsonDocument error = replies.writeConcernError();
        return new WriteConcernError(64, "WriteConcernFailed", error.getString("errmsg").getValue(),
                error.getDocument("errInfo"));
    }

    MongoWriteConcernException writeConcern() {
        BsonValue upserted = planted.chance(50) ? planted.objectId() : planted.string();
        return new MongoWriteConcernException(concernError(), WriteConcernResult.acknowledged(1, false, upserted), ADDRESS);
    }

    MongoCursorNotFoundException cursorNotFound() {
        BsonDocument response = errorResponse(43, "CursorNotFound");
        return new MongoCursorNotFoundException(1234567L, response, ADDRESS);
    }

    MongoExecutionTimeoutException executionTimeout() {
        BsonDocument response = errorResponse(50, "MaxTimeMSExpired");
        return new MongoExecutionTimeoutException(50, response.getString("errmsg").getValue(), response);
    }
}

package io.github.mongoredact.internal;

import com.mongodb.MongoCommandException;
import com.mongodb.lang.Nullable;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * The command logging and monitoring spec's redaction of sensitive commands, enforced whatever the driver did before.
 */
final class SpecRedaction {
    /** The empty document that replaces a sensitive command or reply: shared, immutable, allocated once. */
    static final RawBsonDocument EMPTY = new RawBsonDocument(new byte[]{5, 0, 0, 0, 0});
    private static final String SPECULATIVE_AUTHENTICATE = "speculativeAuthenticate";
    private static final Set<String> SENSITIVE = Collections.unmodifiableSet(new HashSet<>(Arrays.asList(
            "authenticate", "saslStart", "saslContinue", "getnonce", "createUser", "updateUser", "copydbgetnonce",
            "copydbsaslstart", "copydb")));

    private SpecRedaction() {
    }

    static boolean isHello(final String commandName) {
        return commandName.equals("hello") || commandName.equals("isMaster") || commandName.equals("ismaster");
    }

    /** @return whether the command is sensitive: by name, or a hello holding {@code speculativeAuthenticate} */
    static boolean isSensitiveCommand(final String commandName, final BsonDocument command) {
        return SENSITIVE.contains(commandName) || (isHello(commandName) && containsSpeculativeAuthenticate(command));
    }

    /**
     * @param startedSensitive whether the started command was known to be sensitive, null when it is not known
     * @return whether the reply must be redacted
     */
    static boolean isSensitiveReply(final String commandName, final BsonDocument reply, @Nullable final Boolean startedSensitive) {
        if (SENSITIVE.contains(commandName)) {
            return true;
        }
        if (!isHello(commandName)) {
            return false;
        }
        return Boolean.TRUE.equals(startedSensitive) || containsSpeculativeAuthenticate(reply);
    }

    /** @return whether the failure of the command must be redacted */
    static boolean isSensitiveFailure(final String commandName, @Nullable final Boolean startedSensitive) {
        return SENSITIVE.contains(commandName) || (isHello(commandName) && !Boolean.FALSE.equals(startedSensitive));
    }

    private static boolean containsSpeculativeAuthenticate(final BsonDocument document) {
        try {
            return document.containsKey(SPECULATIVE_AUTHENTICATE);
        } catch (RuntimeException e) {
            // unreadable: treat as sensitive
            return true;
        }
    }

    /**
     * The failure of a sensitive command: a {@link MongoCommandException} keeps only code, code name and error labels, as the
     * driver does; other failures carry no server document and are kept.
     */
    static Throwable redactFailure(final Throwable failure) {
        if (failure instanceof MongoCommandException) {
            MongoCommandException e = (MongoCommandException) failure;
            BsonDocument response = new BsonDocument("ok", new BsonInt32(0))
                    .append("code", new BsonInt32(e.getErrorCode()))
                    .append("codeName", new BsonString(e.getErrorCodeName()));
            BsonArray labels = new BsonArray();
            for (String label : e.getErrorLabels()) {
                labels.add(new BsonString(label));
            }
            response.append("errorLabels", labels);
            MongoCommandException redacted = new MongoCommandException(response, e.getServerAddress());
            redacted.setStackTrace(e.getStackTrace());
            return redacted;
        }
        return failure;
    }
}

package io.github.mongoredact.internal;

import com.mongodb.lang.Nullable;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

import java.util.Set;

/**
 * The command logging and monitoring spec's redaction of sensitive commands, enforced whatever the driver did before.
 *
 * <p>Names are matched ignoring case ({@code SASLSTART}, {@code Authenticate}, {@code CreateUser}...), beyond the spec and
 * the driver, which match exactly: defence in depth, so that a password sent by {@code runCommand} under a name in another
 * case is not forwarded verbatim. The same holds for {@code hello}, {@code isMaster}, {@code ismaster} with
 * {@code speculativeAuthenticate}. The comparison allocates nothing (it runs for every command). Stateless and thread-safe.
 */
final class SpecRedaction {
    /** The empty document that replaces a sensitive command or reply: shared, immutable, allocated once. */
    static final RawBsonDocument EMPTY = new RawBsonDocument(new byte[]{5, 0, 0, 0, 0});
    private static final String SPECULATIVE_AUTHENTICATE = "speculativeAuthenticate";
    /** Compared ignoring case, without allocating: this runs for every command. */
    private static final String[] SENSITIVE = {"authenticate", "saslStart", "saslContinue", "getnonce", "createUser",
            "updateUser", "copydbgetnonce", "copydbsaslstart", "copydb"};
    private static final FailureContent SPEC_CONTENT = new SpecContent();

    private SpecRedaction() {
    }

    static boolean isHello(final String commandName) {
        return commandName.equalsIgnoreCase("hello") || commandName.equalsIgnoreCase("isMaster");
    }

    /** @return whether the name is one of the spec's sensitive commands, ignoring case */
    static boolean isSensitiveName(final String commandName) {
        for (String name : SENSITIVE) {
            // equalsIgnoreCase compares lengths first, so most names cost one comparison each
            if (name.equalsIgnoreCase(commandName)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether the command is sensitive: by name, or a hello holding {@code speculativeAuthenticate} */
    static boolean isSensitiveCommand(final String commandName, final BsonDocument command) {
        return isSensitiveName(commandName) || (isHello(commandName) && containsSpeculativeAuthenticate(command));
    }

    /**
     * @param startedSensitive whether the started command was known to be sensitive, null when it is not known
     * @return whether the reply must be redacted
     */
    static boolean isSensitiveReply(final String commandName, final BsonDocument reply, @Nullable final Boolean startedSensitive) {
        if (isSensitiveName(commandName)) {
            return true;
        }
        if (!isHello(commandName)) {
            return false;
        }
        return Boolean.TRUE.equals(startedSensitive) || containsSpeculativeAuthenticate(reply);
    }

    /** @return whether the failure of the command must be redacted */
    static boolean isSensitiveFailure(final String commandName, @Nullable final Boolean startedSensitive) {
        return isSensitiveName(commandName) || (isHello(commandName) && !Boolean.FALSE.equals(startedSensitive));
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
     * The failure of a sensitive command, rebuilt by {@link FailureRebuilder} with the spec's content: a server failure's
     * response holds exactly {@code code}, {@code codeName} and {@code errorLabels} (as the driver does; no {@code ok}), its
     * server texts and documents are emptied; texts of client failures are scrubbed. Types, labels, server address and stack
     * survive as for every redacted failure.
     */
    static Throwable redactFailure(final Throwable failure) {
        return FailureRebuilder.rebuild(failure, SPEC_CONTENT);
    }

    /** @return the response of a redacted server failure: exactly code, code name and error labels */
    static BsonDocument failureResponse(final BsonDocument response, final Set<String> labels) {
        BsonDocument redacted = new BsonDocument();
        BsonValue code = response.get("code");
        redacted.append("code", code != null && code.isNumber() ? new BsonInt32(code.asNumber().intValue()) : new BsonInt32(-1));
        BsonValue codeName = response.get("codeName");
        redacted.append("codeName", new BsonString(codeName != null && codeName.isString() ? codeName.asString().getValue()
                : ""));
        BsonArray array = new BsonArray();
        for (String label : labels) {
            array.add(new BsonString(label));
        }
        return redacted.append("errorLabels", array);
    }

    /** Server parts: only code, code name and labels; client texts scrubbed. */
    private static final class SpecContent implements FailureContent {
        @Override
        public BsonDocument response(final BsonDocument response, final Set<String> labels) {
            return failureResponse(response, labels);
        }

        @Nullable
        @Override
        public BsonDocument details(@Nullable final BsonDocument details, final boolean writeConcern) {
            return details == null ? null : new BsonDocument();
        }

        @Override
        public String serverText(@Nullable final String text) {
            return "";
        }

        @Nullable
        @Override
        public String clientText(@Nullable final String text) {
            return MessageScrubber.scrub(text);
        }

        @Override
        public BsonValue placeholder(final BsonValue id) {
            return FailureRedactor.placeholderOf(id, true);
        }
    }
}

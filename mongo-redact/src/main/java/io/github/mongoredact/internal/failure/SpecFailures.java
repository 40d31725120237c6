package io.github.mongoredact.internal.failure;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.message.ClientMessageScrubber;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.Set;

/**
 * The command logging and monitoring spec's redaction of the failure of a sensitive command (the commands themselves are
 * recognised by {@code SpecRedaction}). Stateless and thread-safe.
 */
public final class SpecFailures {
    private static final FailureContent SPEC_CONTENT = new SpecContent();

    private SpecFailures() {
    }

    /**
     * The failure of a sensitive command, rebuilt by {@link FailureRebuilder} with the spec's content: a server failure's
     * response holds exactly {@code code}, {@code codeName} and {@code errorLabels} (as the driver does; no {@code ok}), its
     * server texts and documents are emptied; texts of client failures are scrubbed. Types, labels, server address and stack
     * survive as for every redacted failure.
     */
    public static Throwable redact(final Throwable failure) {
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
            return ClientMessageScrubber.scrub(text);
        }

        @Override
        public BsonValue placeholder(final BsonValue id) {
            return FailureRedactor.placeholderOf(id, true);
        }
    }
}

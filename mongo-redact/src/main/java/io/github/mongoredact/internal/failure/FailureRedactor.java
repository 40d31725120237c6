package io.github.mongoredact.internal.failure;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.mask.Placeholders;
import io.github.mongoredact.internal.message.ClientMessageScrubber;
import io.github.mongoredact.internal.message.MessageScrubber;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import io.github.mongoredact.internal.walk.DocumentRedactor;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Set;

/**
 * Rebuilds a failure under the policy: every {@link Throwable} of the event, and every one of its cause chain, is rebuilt or
 * replaced by {@link FailureRebuilder} (which documents the types and the stand-in rule); the server's texts are scrubbed by
 * {@link MessageScrubber}, the driver's own client texts by {@link ClientMessageScrubber}, documents (the response, write error
 * details, {@code errInfo}, write concern details) are redacted by the policy's reply rules of the command, inserted and
 * upserted ids in write results become the policy's placeholder. The exception type, code, code name, error labels, cursor id,
 * server address and stack trace survive. Thread-safe (each document is redacted by a redactor borrowed from the shared pool
 * for that document); runs on the failure path only, so it may allocate.
 */
public final class FailureRedactor {
    private static final String ERR_INFO = "errInfo";
    private static final String WRITE_ERRORS = "writeErrors";
    private static final String WRITE_CONCERN_ERROR = "writeConcernError";
    private final CompiledPolicy policy;

    public FailureRedactor(final CompiledPolicy policy) {
        this.policy = policy;
    }

    public Throwable redact(final Throwable failure, final String commandName) {
        return FailureRebuilder.rebuild(failure, new PolicyContent(commandName));
    }

    private BsonDocument redactDocument(final BsonDocument document, final String commandName) {
        DocumentRedactor redactor = DocumentRedactor.borrow();
        byte[] bytes;
        try {
            bytes = redactor.redactReply(document, policy, policy.replyRules(commandName));
        } finally {
            redactor.giveBack();
        }
        return new RawBsonDocument(bytes);
    }

    /**
     * Details are the server's {@code errInfo} of a write error or write concern error: redacted where they sit in the
     * reply ({@code writeErrors.errInfo}, {@code writeConcernError.errInfo}), not as the top of a reply, where names such
     * as {@code n} or {@code ok} are metadata.
     */
    private BsonDocument redactDetails(final BsonDocument details, final boolean writeConcern, final String commandName) {
        BsonDocument error = new BsonDocument(ERR_INFO, details);
        BsonDocument reply = writeConcern ? new BsonDocument(WRITE_CONCERN_ERROR, error)
                : new BsonDocument(WRITE_ERRORS, new BsonArray(Collections.singletonList(error)));
        BsonDocument redacted = redactDocument(reply, commandName);
        BsonValue kept = writeConcern ? redacted.get(WRITE_CONCERN_ERROR) : first(redacted.get(WRITE_ERRORS));
        BsonValue info = kept != null && kept.isDocument() ? kept.asDocument().get(ERR_INFO) : null;
        // dropped or replaced whole by a placeholder: nothing of it stays
        return info != null && info.isDocument() ? info.asDocument() : new BsonDocument();
    }

    @Nullable
    private static BsonValue first(@Nullable final BsonValue array) {
        return array != null && array.isArray() && !array.asArray().isEmpty() ? array.asArray().get(0) : null;
    }

    /** The policy's view of one failure of one command. */
    private final class PolicyContent implements FailureContent {
        private final String commandName;

        PolicyContent(final String commandName) {
            this.commandName = commandName;
        }

        @Override
        public BsonDocument response(final BsonDocument response, final Set<String> labels) {
            return redactDocument(response, commandName);
        }

        @Nullable
        @Override
        public BsonDocument details(@Nullable final BsonDocument details, final boolean writeConcern) {
            return details == null ? null : redactDetails(details, writeConcern, commandName);
        }

        @Nullable
        @Override
        public String serverText(@Nullable final String text) {
            return MessageScrubber.scrub(text, policy.maskDataLikeKeys);
        }

        @Nullable
        @Override
        public String clientText(@Nullable final String text) {
            return ClientMessageScrubber.scrub(text);
        }

        @Override
        public BsonValue placeholder(final BsonValue id) {
            return placeholderOf(id, policy.fixedPlaceholders);
        }
    }

    /** @return the placeholder string the walker writes for a value of this type */
    static BsonValue placeholderOf(final BsonValue id, final boolean fixed) {
        return new BsonString(new String(Placeholders.of((byte) id.getBsonType().getValue(), fixed), StandardCharsets.UTF_8));
    }
}

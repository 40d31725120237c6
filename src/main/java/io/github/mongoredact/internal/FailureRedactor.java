package io.github.mongoredact.internal;

import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * Rebuilds a failure under the policy: every {@link Throwable} of the event, and every one of its cause chain, is rebuilt or
 * replaced by {@link FailureRebuilder} (which documents the types and the stand-in rule); texts are scrubbed by
 * {@link MessageScrubber}, documents (the response, write error details, {@code errInfo}, write concern details) are redacted
 * by the policy's reply rules of the command, inserted and upserted ids in write results become the policy's placeholder.
 * The exception type, code, code name, error labels, cursor id, server address and stack trace survive. Thread-safe (the
 * scratch is the calling thread's {@link Workspace}); runs on the failure path only, so it may allocate.
 */
final class FailureRedactor {
    private final CompiledPolicy policy;

    FailureRedactor(final CompiledPolicy policy) {
        this.policy = policy;
    }

    Throwable redact(final Throwable failure, final String commandName) {
        return FailureRebuilder.rebuild(failure, new PolicyContent(commandName));
    }

    private BsonDocument redactDocument(final BsonDocument document, final String commandName) {
        Workspace workspace = Workspace.current();
        byte[] bytes = workspace.redactor.redact(document, policy, policy.replyRules(commandName), false, true, false,
                workspace);
        return new RawBsonDocument(bytes);
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
        public BsonDocument document(@Nullable final BsonDocument document) {
            return document == null ? null : redactDocument(document, commandName);
        }

        @Nullable
        @Override
        public String serverText(@Nullable final String text) {
            return MessageScrubber.scrub(text);
        }

        @Nullable
        @Override
        public String clientText(@Nullable final String text) {
            return MessageScrubber.scrub(text);
        }

        @Override
        public BsonValue placeholder(final BsonValue id) {
            return placeholderOf(id, policy.fixedPlaceholders);
        }
    }

    /** @return the placeholder string the walker writes for a value of this type */
    static BsonValue placeholderOf(final BsonValue id, final boolean fixed) {
        byte[] placeholder = Placeholders.of((byte) id.getBsonType().getValue(), fixed);
        return new BsonString(new String(placeholder == null ? Placeholders.FIXED : placeholder, StandardCharsets.UTF_8));
    }
}

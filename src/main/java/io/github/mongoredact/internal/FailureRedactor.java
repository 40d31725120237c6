package io.github.mongoredact.internal;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteError;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.bulk.WriteConcernError;
import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;

import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds a driver exception with the values it quotes removed: server messages scrubbed, documents (the response, write
 * error details) redacted by the policy's reply rules. The exception type, code, code name and error labels survive; the
 * stack trace is kept; the cause is not (it may quote the same values). Failures that carry no server text are returned as
 * they are. Runs on the failure path only, so it may allocate.
 */
final class FailureRedactor {
    private final CompiledPolicy policy;

    FailureRedactor(final CompiledPolicy policy) {
        this.policy = policy;
    }

    Throwable redact(final Throwable failure, final String commandName) {
        MongoException redacted;
        if (failure instanceof MongoCommandException) {
            MongoCommandException e = (MongoCommandException) failure;
            redacted = commandException(e, redactDocument(e.getResponse(), commandName));
        } else if (failure instanceof MongoWriteException) {
            MongoWriteException e = (MongoWriteException) failure;
            WriteError error = e.getError();
            redacted = new MongoWriteException(new WriteError(error.getCode(), MessageScrubber.scrub(error.getMessage()),
                    redactDocument(error.getDetails(), commandName)), e.getServerAddress());
        } else if (failure instanceof MongoBulkWriteException) {
            MongoBulkWriteException e = (MongoBulkWriteException) failure;
            List<BulkWriteError> errors = new ArrayList<>();
            for (BulkWriteError error : e.getWriteErrors()) {
                errors.add(new BulkWriteError(error.getCode(), MessageScrubber.scrub(error.getMessage()),
                        redactDocument(error.getDetails(), commandName), error.getIndex()));
            }
            redacted = new MongoBulkWriteException(e.getWriteResult(), errors,
                    concernError(e.getWriteConcernError(), commandName), e.getServerAddress(), e.getErrorLabels());
        } else if (failure instanceof MongoWriteConcernException) {
            MongoWriteConcernException e = (MongoWriteConcernException) failure;
            redacted = new MongoWriteConcernException(concernError(e.getWriteConcernError(), commandName), e.getWriteResult(),
                    e.getServerAddress());
        } else {
            return failure;
        }
        for (String label : ((MongoException) failure).getErrorLabels()) {
            redacted.addLabel(label);
        }
        redacted.setStackTrace(failure.getStackTrace());
        return redacted;
    }

    @Nullable
    private WriteConcernError concernError(@Nullable final WriteConcernError error, final String commandName) {
        if (error == null) {
            return null;
        }
        return new WriteConcernError(error.getCode(), error.getCodeName(), MessageScrubber.scrub(error.getMessage()),
                redactDocument(error.getDetails(), commandName));
    }

    /** The same exception type, built from the redacted response when it has the driver's (response, address) constructor. */
    private static MongoCommandException commandException(final MongoCommandException original, final BsonDocument response) {
        ServerAddress address = original.getServerAddress();
        if (original.getClass() != MongoCommandException.class) {
            try {
                Constructor<? extends MongoCommandException> constructor = original.getClass()
                        .getConstructor(BsonDocument.class, ServerAddress.class);
                return constructor.newInstance(response, address);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // no such constructor: fall back to the base type, which keeps code, code name and labels
            }
        }
        return new MongoCommandException(response, address);
    }

    private BsonDocument redactDocument(final BsonDocument document, final String commandName) {
        Workspace workspace = Workspace.current();
        byte[] bytes = workspace.redactor.redact(document, policy, policy.replyRules(commandName), false, true, false,
                workspace);
        return new RawBsonDocument(bytes);
    }
}

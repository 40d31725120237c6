package io.github.mongoredact.internal.failure;

import com.mongodb.MongoCommandException;
import com.mongodb.ServerAddress;
import org.bson.BsonDocument;

/**
 * Stands for a {@link MongoCommandException} subclass that cannot be rebuilt (not public, outside the driver's packages, or
 * without a {@code (BsonDocument, ServerAddress)} constructor). It stays a {@link MongoCommandException} built from the
 * redacted response, so response, code, code name, labels and server address are kept, and its message starts with the
 * original class name, as for every stand-in ({@link FailureStandIn}). Safe to share between threads once built.
 */
final class FailureCommandStandIn extends MongoCommandException {
    private static final long serialVersionUID = 1L;
    private final String originalClassName;

    FailureCommandStandIn(final String originalClassName, final BsonDocument response, final ServerAddress address) {
        super(response, address);
        this.originalClassName = originalClassName;
    }

    @Override
    public String getMessage() {
        return FailureStandIn.message(originalClassName, super.getMessage());
    }
}

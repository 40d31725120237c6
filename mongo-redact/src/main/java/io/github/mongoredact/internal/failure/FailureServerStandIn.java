package io.github.mongoredact.internal.failure;

import com.mongodb.MongoServerException;
import com.mongodb.ServerAddress;
import com.mongodb.lang.Nullable;

/**
 * Stands for a server failure ({@link MongoServerException}) whose type cannot be rebuilt without its values, such as 5.x's
 * {@code ClientBulkWriteException} or a subclass the library does not know. Same rule as {@link FailureStandIn} (message: the
 * original class name and the scrubbed message; code, labels, stack kept; cause redacted), and it stays a
 * {@link MongoServerException}, so code name and server address are kept too. Safe to share between threads once built.
 */
final class FailureServerStandIn extends MongoServerException {
    private static final long serialVersionUID = 1L;

    FailureServerStandIn(final int code, @Nullable final String codeName, final String originalClassName,
                         @Nullable final String text, final ServerAddress address) {
        super(code, codeName, FailureStandIn.message(originalClassName, text), address);
    }
}

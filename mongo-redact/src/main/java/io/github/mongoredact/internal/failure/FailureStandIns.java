package io.github.mongoredact.internal.failure;

import com.mongodb.MongoClientException;
import com.mongodb.MongoException;
import com.mongodb.lang.Nullable;

/**
 * The failures the pipeline forwards in place of one it has not got or could not redact. Each says what happened and which
 * command it concerns, and none carries a text of the original.
 */
public final class FailureStandIns {

    private FailureStandIns() {
    }

    /**
     * A failed event without a throwable (the driver never makes one, a third party's code may) is still a failure: sinks must
     * not see it as a success.
     *
     * @return the throwable of the event, or a client exception that says it was missing
     */
    public static Throwable ofEvent(@Nullable final Throwable thrown, final String commandName) {
        return thrown != null ? thrown : new MongoClientException("The driver reported the failure of command "
                + commandName + " without a throwable");
    }

    /**
     * @param original the failure whose redaction failed
     * @param redactionFailure why it failed, of which only the class name is told
     * @return a stand-in with the original's code (or -1) and stack trace, and its text withheld
     */
    public static MongoException unredacted(final Throwable original, final String commandName,
                                            final Throwable redactionFailure) {
        MongoException replaced = new MongoException(original instanceof MongoException
                ? ((MongoException) original).getCode() : -1,
                "The failure of command " + commandName + " could not be redacted ("
                        + redactionFailure.getClass().getSimpleName() + "); its text is withheld");
        replaced.setStackTrace(original.getStackTrace());
        return replaced;
    }
}

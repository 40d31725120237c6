package io.github.mongoredact;

import com.mongodb.MongoClientException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoConfigurationException;
import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoCredential;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoGridFSException;
import com.mongodb.MongoInternalException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoServerException;
import com.mongodb.MongoServerUnavailableException;
import com.mongodb.MongoSocketClosedException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoSocketOpenException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.MongoSocketWriteException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ServerId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.SocketTimeoutException;
import java.util.Set;

import static io.github.mongoredact.FailureLeaks.ADDRESS;
import static io.github.mongoredact.FailureLeaks.EMAIL;
import static io.github.mongoredact.FailureLeaks.SECRET;
import static io.github.mongoredact.FailureLeaks.TEXT;
import static io.github.mongoredact.FailureLeaks.forward;
import static io.github.mongoredact.FailureLeaks.response;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Client-side failures, wrappers and types the library cannot rebuild, planted with values in every message and cause,
 * forwarded under {@link RedactionPolicy#defaults()}: every one is rebuilt (same type where it is public and constructible)
 * or stood in for, with its whole cause chain; none is passed on.
 */
class FailureClientTypesTest {

    /** A wrapper type the library does not know: outside the packages whose constructors it trusts. */
    static final class ApplicationFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ApplicationFailure(final String message, final Throwable cause) {
            super(message, cause);
        }
    }

    /** A server failure type the library does not know. */
    static final class UnknownServerFailure extends MongoServerException {
        private static final long serialVersionUID = 1L;

        UnknownServerFailure() {
            super(91, "ShutdownInProgress", TEXT, ADDRESS);
        }
    }

    /** A command failure type the library does not know. */
    static final class UnknownCommandFailure extends MongoCommandException {
        private static final long serialVersionUID = 1L;

        UnknownCommandFailure() {
            super(response(13, "Unauthorized", "NoWritesPerformed"), ADDRESS);
        }
    }

    private static MongoCommandException serverFailure() {
        return new MongoCommandException(response(11000, "DuplicateKey"), ADDRESS);
    }

    private static <T extends Throwable> T sameType(final T original, final Throwable redacted) {
        assertSame(original.getClass(), redacted.getClass());
        assertArrayEquals(original.getStackTrace(), redacted.getStackTrace());
        @SuppressWarnings("unchecked")
        T typed = (T) redacted;
        return typed;
    }

    @ParameterizedTest
    @ValueSource(classes = {MongoSocketException.class, MongoSocketReadException.class,
            MongoSocketReadTimeoutException.class, MongoSocketWriteException.class, MongoSocketOpenException.class})
    void socketFailuresKeepTypeAddressAndCauseType(final Class<? extends MongoSocketException> type) throws Exception {
        MongoSocketException original = type.getConstructor(String.class, ServerAddress.class, Throwable.class)
                .newInstance(TEXT, ADDRESS, new SocketTimeoutException("Read timed out for '" + SECRET + "'"));
        original.addLabel("SystemOverloadedError");
        MongoSocketException redacted = sameType(original, forward("find", original));
        assertEquals(ADDRESS, redacted.getServerAddress());
        assertEquals(Set.of("SystemOverloadedError"), redacted.getErrorLabels());
        assertSame(SocketTimeoutException.class, redacted.getCause().getClass());
        // a client exception's message keeps the words of the driver's templates only, never a value
        assertTrue(redacted.getMessage().contains("duplicate key error collection: ?"), redacted.getMessage());
        assertEquals("?message", redacted.getCause().getMessage());
    }

    @Test
    void socketClosedKeepsItsType() {
        MongoSocketClosedException original = new MongoSocketClosedException(TEXT, ADDRESS);
        assertEquals(ADDRESS, sameType(original, forward("find", original)).getServerAddress());
    }

    @Test
    void timeoutKeepsItsType() {
        MongoTimeoutException original = new MongoTimeoutException("Timed out after 30000 ms, cluster state is "
                + "{ servers: [{ address: " + EMAIL + " }] } '" + SECRET + "' { n: " + FailureLeaks.NUMBER + " }");
        sameType(original, forward("find", original));
    }

    @Test
    void clientExceptionWrappingAServerFailureHasThatFailureRedactedAsCause() {
        MongoClientException original = new MongoClientException(TEXT, serverFailure());
        MongoClientException redacted = sameType(original, forward("find", original));
        MongoCommandException cause = assertInstanceOf(MongoCommandException.class, redacted.getCause());
        assertEquals(11000, cause.getErrorCode());
        assertEquals(ADDRESS, cause.getServerAddress());
    }

    @Test
    void interruptedKeepsTypeAndInterruptedCause() {
        MongoInterruptedException original = new MongoInterruptedException(TEXT, new InterruptedException(TEXT));
        MongoInterruptedException redacted = sameType(original, forward("find", original));
        assertSame(InterruptedException.class, redacted.getCause().getClass());
    }

    @Test
    void securityExceptionLosesItsCredential() {
        MongoCredential credential = MongoCredential.createCredential(EMAIL, "admin", SECRET.toCharArray());
        MongoSecurityException original = new MongoSecurityException(credential, TEXT, serverFailure());
        MongoSecurityException redacted = sameType(original, forward("saslContinue2", original));
        assertNull(redacted.getCredential());
        assertEquals(11000, ((MongoCommandException) redacted.getCause()).getErrorCode());
    }

    @Test
    void plainMongoExceptionKeepsCodeAndLabels() {
        MongoException original = new MongoException(262, TEXT, new IllegalStateException(TEXT));
        original.addLabel("TransientTransactionError");
        MongoException redacted = sameType(original, forward("commitTransaction", original));
        assertEquals(262, redacted.getCode());
        assertEquals(Set.of("TransientTransactionError"), redacted.getErrorLabels());
        assertSame(IllegalStateException.class, redacted.getCause().getClass());
    }

    @ParameterizedTest
    @ValueSource(classes = {MongoInternalException.class, MongoConfigurationException.class, MongoGridFSException.class,
            IllegalStateException.class, RuntimeException.class})
    void typesWithTextConstructorsAreRebuiltWithTheirCauseChain(final Class<? extends Throwable> type) throws Exception {
        Throwable original = type.getConstructor(String.class, Throwable.class).newInstance(TEXT,
                new RuntimeException(TEXT, serverFailure()));
        Throwable redacted = sameType(original, forward("find", original));
        assertSame(RuntimeException.class, redacted.getCause().getClass());
        assertEquals(11000, ((MongoCommandException) redacted.getCause().getCause()).getErrorCode());
    }

    @Test
    void typeWithOnlyAMessageConstructorIsRebuilt() {
        MongoServerUnavailableException original = new MongoServerUnavailableException(TEXT);
        sameType(original, forward("find", original));
    }

    @Test
    void unknownWrapperBecomesAStandInNamingIt() {
        ApplicationFailure original = new ApplicationFailure(TEXT, serverFailure());
        MongoException redacted = assertInstanceOf(MongoException.class, forward("find", original));
        assertTrue(redacted.getMessage().startsWith(ApplicationFailure.class.getName() + ": "), redacted.getMessage());
        assertEquals(-1, redacted.getCode());
        assertArrayEquals(original.getStackTrace(), redacted.getStackTrace());
        assertEquals(11000, ((MongoCommandException) redacted.getCause()).getErrorCode());
    }

    @Test
    void poolClearedBecomesAStandInWithItsCauseRedacted() {
        MongoConnectionPoolClearedException original = new MongoConnectionPoolClearedException(
                new ServerId(new ClusterId(SECRET), ADDRESS), new MongoSocketReadException(TEXT, ADDRESS));
        MongoException redacted = assertInstanceOf(MongoException.class, forward("find", original));
        assertTrue(redacted.getMessage().startsWith(MongoConnectionPoolClearedException.class.getName()),
                redacted.getMessage());
        assertSame(MongoSocketReadException.class, redacted.getCause().getClass());
    }

    @Test
    void unknownServerFailureBecomesAServerStandIn() {
        UnknownServerFailure original = new UnknownServerFailure();
        original.addLabel("RetryableWriteError");
        MongoServerException redacted = assertInstanceOf(MongoServerException.class, forward("insert", original));
        assertTrue(redacted.getMessage().startsWith(UnknownServerFailure.class.getName()), redacted.getMessage());
        assertEquals(91, redacted.getCode());
        assertEquals("ShutdownInProgress", redacted.getErrorCodeName());
        assertEquals(ADDRESS, redacted.getServerAddress());
        assertEquals(Set.of("RetryableWriteError"), redacted.getErrorLabels());
    }

    @Test
    void unknownCommandFailureStaysACommandFailure() {
        UnknownCommandFailure original = new UnknownCommandFailure();
        MongoCommandException redacted = assertInstanceOf(MongoCommandException.class, forward("insert", original));
        assertTrue(redacted.getMessage().startsWith(UnknownCommandFailure.class.getName()), redacted.getMessage());
        assertEquals(13, redacted.getErrorCode());
        assertEquals("Unauthorized", redacted.getErrorCodeName());
        assertEquals(Set.of("NoWritesPerformed"), redacted.getErrorLabels());
    }

    @Test
    void operationTimeoutOfNewerDriversKeepsTypeAndServerCause() throws Exception {
        Class<? extends Throwable> type;
        try {
            type = Class.forName("com.mongodb.MongoOperationTimeoutException").asSubclass(Throwable.class);
        } catch (ClassNotFoundException e) {
            // the driver line under test predates 5.2: the same path is covered by the text-constructor tests above
            org.junit.jupiter.api.Assumptions.abort("MongoOperationTimeoutException needs driver 5.2+");
            return;
        }
        Throwable original = type.getConstructor(String.class, Throwable.class).newInstance(TEXT,
                new MongoExecutionTimeoutException(50, TEXT));
        Throwable redacted = sameType(original, forward("find", original));
        assertSame(MongoExecutionTimeoutException.class, redacted.getCause().getClass());
        assertEquals(50, ((MongoException) redacted.getCause()).getCode());
    }

    @Test
    void suppressedFailuresAreRedactedToo() {
        MongoSocketReadException original = new MongoSocketReadException(TEXT, ADDRESS);
        original.addSuppressed(new IllegalArgumentException(TEXT));
        original.addSuppressed(serverFailure());
        Throwable redacted = forward("find", original);
        assertEquals(2, redacted.getSuppressed().length);
        assertSame(IllegalArgumentException.class, redacted.getSuppressed()[0].getClass());
        assertEquals(11000, ((MongoCommandException) redacted.getSuppressed()[1]).getErrorCode());
    }

    @Test
    void causeCycleIsCut() {
        RuntimeException first = new RuntimeException(TEXT);
        IllegalStateException second = new IllegalStateException(TEXT);
        first.initCause(second);
        second.initCause(first);
        Throwable redacted = forward("find", first);
        assertSame(IllegalStateException.class, redacted.getCause().getClass());
        assertNull(redacted.getCause().getCause());
    }

    @Test
    void longCauseChainIsCutAtSixteen() {
        Throwable original = serverFailure();
        for (int i = 0; i < 40; i++) {
            original = new RuntimeException(TEXT, original);
        }
        Throwable redacted = forward("find", original);
        int depth = 0;
        for (Throwable t = redacted; t != null; t = t.getCause()) {
            depth++;
        }
        assertEquals(16, depth);
    }
}

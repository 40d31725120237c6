package io.github.mongoredact;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link CallbackGuard}, the public form of the library's rule at the edge of a driver callback. */
class CallbackGuardTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    @Test
    @SuppressWarnings("removal")
    void onlyARequestToEndTheThreadGoesOn() {
        assertThrows(ThreadDeath.class, () -> CallbackGuard.rethrowIfStopRequest(new ThreadDeath()));
        assertDoesNotThrow(() -> CallbackGuard.rethrowIfStopRequest(new OutOfMemoryError("test")));
        assertDoesNotThrow(() -> CallbackGuard.rethrowIfStopRequest(new StackOverflowError()));
        assertDoesNotThrow(() -> CallbackGuard.rethrowIfStopRequest(new IllegalStateException("test")));
    }

    @Test
    void warnsOnceWithTheDriversVersionThenLogsAtDebugAndEachGuardWarnsOnItsOwn() {
        CallbackGuard guard = new CallbackGuard(CallbackGuardTest.class);
        guard.log("MySink dropped a command", new IllegalStateException("boom"));
        guard.log("MySink dropped another", new IllegalStateException("again"));
        guard.log("MySink dropped one more", null);
        List<String> texts = warnings.texts();
        assertEquals(1, texts.size(), texts.toString());
        assertTrue(texts.get(0).startsWith("MySink dropped a command (MongoDB Java driver "), texts.get(0));
        assertTrue(texts.get(0).endsWith("| java.lang.IllegalStateException: boom"), texts.get(0));
        new CallbackGuard(CallbackGuardTest.class).log("Another sink failed", null);
        assertEquals(2, warnings.texts().size(), warnings.texts().toString());
        assertTrue(guard.toString().contains(CallbackGuardTest.class.getName()), guard.toString());
    }

    @Test
    void refusesANullOwner() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new CallbackGuard(null));
        assertEquals("owner can not be null", e.getMessage());
    }
}

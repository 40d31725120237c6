package io.github.mongoredact;

import io.github.mongoredact.internal.bson.DriverApi;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A driver the listener can not work with is refused by {@code build()}, in the application's configuration code, with one
 * message naming the driver's version and the supported range. The build runs {@link #olderDriverIsRefusedByBuild()} with
 * driver 4.10 on the class path; on supported lines it checks that {@code build()} accepts the driver.
 */
class UnsupportedDriverTest {

    @Test
    void olderDriverIsRefusedByBuild() {
        String version = DriverApi.driverVersion();
        if (DriverApi.olderThanOldestSupported(version)) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> RedactingCommandListener.builder().build());
            assertEquals("mongo-redact supports the MongoDB Java driver 4.11.0 to 5.x; the driver on the class path, version "
                    + version + ", lacks: a driver of 4.11.0 or later; CommandSucceededEvent(RequestContext, long, int, "
                    + "ConnectionDescription, String, String, BsonDocument, long); CommandFailedEvent(RequestContext, long, int, "
                    + "ConnectionDescription, String, String, long, Throwable)", refused.getMessage());
        } else {
            assertEquals(null, DriverApi.unsupportedReason());
            assertTrue(RedactingCommandListener.builder().build() != null);
        }
    }

    @Test
    void versionsBeforeTheOldestSupportedLineAreRecognised() {
        assertTrue(DriverApi.olderThanOldestSupported("4.10.2"));
        assertTrue(DriverApi.olderThanOldestSupported("3.12.14"));
        assertFalse(DriverApi.olderThanOldestSupported("4.11.0"));
        assertFalse(DriverApi.olderThanOldestSupported("5.0.1"));
        assertFalse(DriverApi.olderThanOldestSupported("5.14.0-SNAPSHOT"));
        assertFalse(DriverApi.olderThanOldestSupported("unknown"));
    }
}

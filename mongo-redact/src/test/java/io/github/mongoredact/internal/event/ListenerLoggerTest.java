package io.github.mongoredact.internal.event;

import io.github.mongoredact.RedactingCommandListener;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ListenerLoggerTest {
    @Test
    void isNamedAfterTheListenerClass() {
        assertEquals(RedactingCommandListener.class.getName(), ListenerLogger.NAME);
        assertEquals(RedactingCommandListener.class.getName(), ListenerLogger.LOGGER.getName());
    }
}

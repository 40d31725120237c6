package io.github.mongoredact;

import com.mongodb.MongoClientSettings;
import com.mongodb.event.CommandListener;
import io.github.mongoredact.handoff.HandOffSink;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sink handed to the driver would receive borrowed events and record nothing: the type system refuses it. What javac
 * refuses can not be a test that runs, so this checks the types that make {@code settings.addCommandListener(sink)} a
 * compile error: no sink is a {@link CommandListener}, and the only parameter type of {@code addCommandListener} is one.
 */
class SinksAreNotListenersTest {

    @Test
    void noSinkOfTheLibraryIsACommandListener() {
        HandOffSink handOff = HandOffSink.builder(new KeepingListener()).build();
        try {
            List<Object> sinks = List.of(CommandLogSink.builder().build(),
                    MicrometerCommandSink.builder(new SimpleMeterRegistry()).build(), handOff);
            assertFalse(CommandListener.class.isAssignableFrom(CommandSink.class));
            for (Object sink : sinks) {
                assertTrue(sink instanceof CommandSink, sink.toString());
                assertFalse(sink instanceof CommandListener, sink + " could be registered on the driver");
            }
        } finally {
            handOff.close();
        }
    }

    @Test
    void theDriverTakesOnlyCommandListeners() throws Exception {
        Method add = MongoClientSettings.Builder.class.getMethod("addCommandListener", CommandListener.class);
        assertEquals(1, add.getParameterCount());
        for (Method method : MongoClientSettings.Builder.class.getMethods()) {
            if (method.getName().equals("addCommandListener")) {
                assertEquals(CommandListener.class, method.getParameterTypes()[0], method.toString());
            }
        }
    }

    @Test
    void sinksAndListenersAreKeptApart() {
        CommandLogSink sink = CommandLogSink.builder().build();
        KeepingListener plain = new KeepingListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(sink).addListener(plain).build();
        assertEquals(List.of(sink), listener.getSinks());
        assertEquals(List.of(plain), listener.getListeners());
    }
}

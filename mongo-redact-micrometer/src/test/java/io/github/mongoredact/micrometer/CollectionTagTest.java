package io.github.mongoredact.micrometer;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The collection tag as Micrometer names it, and the property that lets the sink's front table be keyed by the name. */
class CollectionTagTest {
    private static final List<String> COMMANDS = List.of("find", "insert", "getMore", "aggregate", "killCursors", "ping",
            "collStats", "listCollections", "hello");
    private static final List<String> NAMES = Arrays.asList(null, "users", " users ", "", "   ", "unknown", " unknown", "a b");

    @Test
    void namesTheTrimmedCollectionOfTheCommandsMicrometerTakesItFrom() {
        assertEquals("users", CollectionTag.of("find", "users"));
        assertEquals("users", CollectionTag.of("insert", " users "));
        assertEquals("users", CollectionTag.of("getMore", "users"));
        assertEquals("a b", CollectionTag.of("update", "a b"));
    }

    @Test
    void namesUnknownForOtherCommandsAndForMissingOrBlankNames() {
        assertEquals(CollectionTag.UNKNOWN, CollectionTag.of("collStats", "users"));
        assertEquals(CollectionTag.UNKNOWN, CollectionTag.of("ping", null));
        assertEquals(CollectionTag.UNKNOWN, CollectionTag.of("find", null));
        assertEquals(CollectionTag.UNKNOWN, CollectionTag.of("find", ""));
        assertEquals(CollectionTag.UNKNOWN, CollectionTag.of("find", "  "));
    }

    @Test
    void aTagIsItsOwnKey() {
        for (String command : COMMANDS) {
            for (String name : NAMES) {
                String tag = CollectionTag.of(command, name);
                assertEquals(tag, CollectionTag.of(command, tag), command + " " + name);
            }
        }
    }
}

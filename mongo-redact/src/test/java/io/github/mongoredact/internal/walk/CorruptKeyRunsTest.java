package io.github.mongoredact.internal.walk;

import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.DriverShapes.Backing;
import io.github.mongoredact.LastEventListener;
import io.github.mongoredact.LibraryWarnings;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.event.CommandProcessor;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonMaxKey;
import org.bson.BsonNull;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keys that corrupt bytes make of other bytes are refused wherever the walk reads them: a key that holds DEL (0x7F, the MaxKey
 * type byte, which {@code BsonValidation.checkKey} refuses and the key loops let pass), and a key run into a regular
 * expression's pattern (its NUL changed), which crosses no type byte of its own and is refused at the options it then reads.
 * Under the defaults and with the filter kept, in a command held as bytes and in sequence documents, in every backing.
 */
class CorruptKeyRunsTest {
    @RegisterExtension
    final LibraryWarnings warnings = new LibraryWarnings();

    private static final String PATTERN = "ZqBddilggQqrADWu";
    private static final List<RedactionPolicy> POLICIES = List.of(RedactionPolicy.defaults(),
            RedactionPolicy.builder(RedactionPolicy.defaults()).keep("filter").build());

    private static BsonDocument forward(final RedactionPolicy policy, final BsonDocument command, final String name) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(last).build();
        listener.commandStarted(DriverShapes.started(1, name, command));
        return last.started.getCommand();
    }

    private static int indexOf(final byte[] bytes, final String text) {
        int at = RedactionPropertiesTest.indexOf(bytes, text.getBytes(StandardCharsets.US_ASCII));
        assertTrue(at >= 0, text + " not found");
        return at;
    }

    private static void assertMarker(final BsonDocument forwarded, final String where) {
        assertTrue(forwarded.containsKey(CommandProcessor.REDACTION_ERROR_KEY), where + ": " + forwarded.toJson());
        assertEquals(1, forwarded.size(), where);
    }

    @Test
    void aKeyWithDelIsRefusedInACommandAndInASequenceDocument() {
        BsonDocument filter = new BsonDocument("name", new BsonString("alice")).append("m", new BsonMaxKey());
        byte[] find = DriverShapes.encode(new BsonDocument("find", new BsonString("users")).append("filter", filter)
                .append("$db", new BsonString("shop")));
        find[indexOf(find, "name") + 2] = 0x7F;
        byte[] document = DriverShapes.encode(filter);
        document[indexOf(document, "name") + 2] = 0x7F;
        for (RedactionPolicy policy : POLICIES) {
            for (Backing backing : Backing.values()) {
                String where = policy + " " + backing;
                assertMarker(forward(policy, backing.apply(find.clone()), "find"), where + " find");
                BsonDocument insert = new BsonDocument("insert", new BsonString("users")).append("$db", new BsonString("shop"))
                        .append("documents", new BsonArray(List.of(backing.apply(document.clone()))));
                assertMarker(forward(policy, insert, "insert"), where + " insert");
            }
        }
    }

    @Test
    void aKeyRunIntoARegularExpressionsPatternIsRefused() {
        for (String key : new String[]{"name", "$exists", "$in"}) {
            // the pattern then read from the empty options, the options from the null's type byte and key, the next
            // element from the int32's: framing that holds but for the options
            BsonDocument filter = new BsonDocument(key, new BsonRegularExpression("^" + PATTERN + ".*", ""))
                    .append("s", new BsonNull()).append("i", new BsonInt32(7));
            byte[] find = DriverShapes.encode(new BsonDocument("find", new BsonString("users")).append("filter", filter)
                    .append("$db", new BsonString("shop")));
            int nul = indexOf(find, key) + key.length();
            for (RedactionPolicy policy : POLICIES) {
                for (Backing backing : Backing.values()) {
                    String where = key + " " + policy + " " + backing;
                    BsonDocument intact = forward(policy, backing.apply(find.clone()), "find");
                    assertFalse(intact.containsKey(CommandProcessor.REDACTION_ERROR_KEY), where + ": " + intact.toJson());
                    byte[] corrupt = find.clone();
                    corrupt[nul] = '0';
                    BsonDocument forwarded = forward(policy, backing.apply(corrupt), "find");
                    assertFalse(forwarded.toJson().contains(PATTERN.substring(0, 6)), where + ": " + forwarded.toJson());
                    assertMarker(forwarded, where);
                }
            }
        }
    }
}

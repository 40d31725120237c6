package io.github.mongoredact;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A string inside a kept container that is not valid UTF-8, or holds a NUL, is refused with the marker however often the same
 * shape was seen before on the thread: every command is sent three times whole, then with one byte of its kept value
 * changed, through a policy that keeps the container, with and without key masking, with a plain downstream and with a sink
 * that reads documents and the fingerprint. (A replay of the shape once forwarded the changed bytes.)
 */
class CorruptKeptValueTest {
    private static final String VALUE = "abcd";

    @Test
    void aCorruptStringInAKeptContainerGivesTheMarkerAfterItsShapeWasSeen() {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (BsonDocument command : commands()) {
            String container = command.getFirstKey().equals("count") || command.getFirstKey().equals("distinct") ? "query"
                    : command.containsKey("comment") ? "comment" : "filter";
            for (KeyMasking masking : new KeyMasking[]{KeyMasking.DATA_LIKE, KeyMasking.NONE}) {
                RedactionPolicy policy = RedactionPolicy.builder(RedactionPolicy.defaults()).keep(container)
                        .keyMasking(masking).build();
                for (boolean sink : new boolean[]{false, true}) {
                    for (byte bad : new byte[]{(byte) 0xFF, 0x00}) {
                        checked++;
                        String problem = check(command, policy, sink, bad);
                        if (problem != null) {
                            problems.add(command.toJson() + " keep(" + container + ") " + masking + " sink=" + sink
                                    + " byte=" + bad + ": " + problem);
                        }
                    }
                }
            }
        }
        assertTrue(checked >= 64, "checked " + checked);
        assertTrue(problems.isEmpty(), problems.size() + " of " + checked + ":\n" + String.join("\n", problems));
    }

    /** @return what went wrong, or null */
    private static String check(final BsonDocument command, final RedactionPolicy policy, final boolean sink, final byte bad) {
        LastEventListener last = new LastEventListener();
        RecordingSink recording = new RecordingSink(true, true);
        RedactingCommandListener.Builder builder = RedactingCommandListener.builder().policy(policy).addListener(last);
        if (sink) {
            builder.addSink(recording);
        }
        RedactingCommandListener listener = builder.build();
        String name = command.getFirstKey();
        byte[] whole = DriverShapes.encode(command);
        for (int i = 0; i < 3; i++) {
            listener.commandStarted(DriverShapes.started(i, name, DriverShapes.byteBufDocument(ByteBuffer.wrap(whole.clone()),
                    0)));
            BsonDocument forwarded = last.started.getCommand();
            if (forwarded.containsKey("$redactionError") || !new String(DriverShapes.ownedBytes(forwarded),
                    StandardCharsets.ISO_8859_1).contains(VALUE)) {
                return "the whole command did not keep its value: " + forwarded.toJson();
            }
        }
        byte[] corrupt = whole.clone();
        int at = CorruptInputTest.indexOf(corrupt, VALUE) + 1;
        assertTrue(at > 0, "the value is in the command");
        corrupt[at] = bad;
        listener.commandStarted(DriverShapes.started(9, name, DriverShapes.byteBufDocument(ByteBuffer.wrap(corrupt), 0)));
        BsonDocument forwarded = last.started.getCommand();
        if (!forwarded.containsKey("$redactionError")) {
            return "forwarded " + forwarded.toJson();
        }
        if (sink && !recording.started.get(3).getCommand().containsKey("$redactionError")) {
            return "the sink got " + recording.started.get(3).getCommand().toJson();
        }
        assertEquals(1, listener.getCounters().getRedactionFailures(), listener.getCounters().toString());
        return null;
    }

    private static List<BsonDocument> commands() {
        BsonDocument name = new BsonDocument("name", new BsonString(VALUE));
        BsonDocument in = new BsonDocument("name", new BsonDocument("$in", new BsonArray(List.of(new BsonString("x"),
                new BsonString(VALUE)))));
        BsonDocument nested = new BsonDocument("a", new BsonDocument("b", new BsonString(VALUE)));
        List<BsonDocument> commands = new ArrayList<>();
        for (BsonDocument filter : new BsonDocument[]{name, in, nested}) {
            commands.add(new BsonDocument("find", new BsonString("users")).append("filter", filter.clone())
                    .append("$db", new BsonString("shop")));
            commands.add(new BsonDocument("find", new BsonString("users")).append("filter", filter.clone())
                    .append("limit", new BsonInt32(1)).append("singleBatch", org.bson.BsonBoolean.TRUE)
                    .append("$db", new BsonString("shop")));
            commands.add(new BsonDocument("count", new BsonString("users")).append("query", filter.clone())
                    .append("$db", new BsonString("shop")));
            commands.add(new BsonDocument("distinct", new BsonString("users")).append("key", new BsonString("city"))
                    .append("query", filter.clone()).append("$db", new BsonString("shop")));
        }
        commands.add(new BsonDocument("find", new BsonString("users")).append("comment", name.clone())
                .append("$db", new BsonString("shop")));
        return commands;
    }
}

package io.github.mongoredact.jmh.mix;

import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.MixInput;
import io.github.mongoredact.jmh.floor.FramingCopyFloor;
import io.github.mongoredact.jmh.floor.PlanFloor;
import io.github.mongoredact.jmh.support.Forwarded;
import io.github.mongoredact.jmh.support.MixCommands;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.io.BasicOutputBuffer;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The mix's floors and peer give, byte for byte, what the library forwards for every command of the mix. */
class MixFloorsTest {

    static MixInput input(final MixCommands.Command command) {
        MixInput input = new MixInput();
        input.command = command.param();
        input.setUp();
        return input;
    }

    @Test
    void framingCopyIsWhatSpecOnlyForwardsForEveryCommand() {
        FramingCopyFloor floor = new FramingCopyFloor();
        for (MixCommands.Command command : MixCommands.Command.values()) {
            MixInput input = input(command);
            assertArrayEquals(input.forwarded(RedactionPolicy.specOnly()), floor.copy(input.document()), command.param());
        }
    }

    @Test
    void planFloorIsWhatDefaultsForwardsForEveryCommandAndAgain() {
        for (MixCommands.Command command : MixCommands.Command.values()) {
            MixInput input = input(command);
            byte[] expected = input.forwarded(RedactionPolicy.defaults());
            PlanFloor floor = PlanFloor.of(input.document(), expected);
            assertArrayEquals(expected, floor.redact(input.document()), command.param());
            assertArrayEquals(expected, floor.redact(input.document()), command.param() + ", the scratch reused");
            assertTrue(floor.planSize() > 5, command.param() + " plan of " + floor.planSize());
        }
    }

    @Test
    void planFloorDropsKeepsDescendsAndReplaces() {
        MixInput input = input(MixCommands.Command.UPDATE_ONE);
        byte[] expected = input.forwarded(RedactionPolicy.defaults());
        RawBsonDocument redacted = new RawBsonDocument(PlanFloor.of(input.document(), expected).redact(input.document()));
        assertEquals(new BsonString("?objectId"),
                redacted.getArray("updates").get(0).asDocument().getDocument("q").get("_id"));
        assertTrue(!redacted.getDocument("$clusterTime").containsKey("signature"), redacted.toJson());
        assertEquals(input.started.getCommand().getDocument("lsid"), redacted.getDocument("lsid"));
    }

    @Test
    void planFloorRefusesAnOutputThatIsNotARedactionOfTheInput() {
        BsonDocument input = new BsonDocument("a", new BsonInt32(1));
        byte[] other = bytes(new BsonDocument("a", new BsonInt32(2)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PlanFloor.of(input, other));
        assertEquals("element a of type 16 became type 16: not kept, dropped, a placeholder or walked into", e.getMessage());
        byte[] more = bytes(new BsonDocument("a", new BsonInt32(1)).append("b", new BsonInt32(2)));
        assertThrows(IllegalArgumentException.class, () -> PlanFloor.of(input, more));
    }

    @Test
    void everySubjectOfTheMixChecksItselfInSetup() {
        for (MixCommands.Command command : MixCommands.Command.values()) {
            MixInput input = input(command);
            CodecEncodingBenchmark codec = new CodecEncodingBenchmark();
            codec.setUp(input);
            BasicOutputBuffer buffer = codec.mix(input);
            assertArrayEquals(input.forwarded(RedactionPolicy.specOnly()),
                    Arrays.copyOf(buffer.getInternalBuffer(), buffer.getPosition()), command.param());
            new FloorFramingCopyBenchmark().setUp(input);
            new FloorOnePassBenchmark().setUp(input);
            for (String floor : new String[]{"framingCopy", "onePass"}) {
                FloorForwardedBenchmark forwarded = new FloorForwardedBenchmark();
                forwarded.floor = floor;
                forwarded.setUp(input);
                Object event = forwarded.mix(input);
                assertEquals(input.reply ? "CommandSucceededEvent" : "CommandStartedEvent", event.getClass().getSimpleName());
            }
        }
    }

    private static byte[] bytes(final BsonDocument document) {
        RawBsonDocument raw = new RawBsonDocument(document, new BsonDocumentCodec());
        return Arrays.copyOf(raw.getBackingArray(), raw.getByteLength());
    }
}

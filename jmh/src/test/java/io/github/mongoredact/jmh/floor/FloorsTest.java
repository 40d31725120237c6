package io.github.mongoredact.jmh.floor;

import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.jmh.CodecEncodingBenchmark;
import io.github.mongoredact.jmh.FloorForwardedBenchmark;
import io.github.mongoredact.jmh.FloorInput;
import io.github.mongoredact.jmh.support.DriverDocuments;
import io.github.mongoredact.jmh.support.Forwarded;
import io.github.mongoredact.jmh.support.Inputs;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.ByteBuf;
import org.bson.RawBsonDocument;
import org.bson.io.BasicOutputBuffer;
import org.bson.types.Decimal128;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The floor prototypes give, byte for byte, what the library forwards for the benchmarks' input. */
class FloorsTest {
    private static final int[] COUNTS = {0, 1, 5, 1000};

    private static FloorInput input(final int count) {
        return input("small", count);
    }

    private static FloorInput input(final String docSize, final int count) {
        FloorInput input = new FloorInput();
        input.shape = "plain";
        input.docSize = docSize;
        input.count = count;
        input.setUp();
        return input;
    }

    @Test
    void framingCopyIsWhatSpecOnlyForwards() {
        FramingCopyFloor floor = new FramingCopyFloor();
        for (int count : COUNTS) {
            CommandStartedEvent event = input(count).event;
            byte[] copy = floor.copy(event.getCommand());
            assertArrayEquals(Forwarded.started(RedactionPolicy.specOnly(), event), copy, "count=" + count);
            assertEquals(DriverDocuments.bytesOf(event.getCommand()).length, copy.length, "count=" + count);
        }
    }

    @Test
    void onePassAndTwoPassWalkersAreWhatDefaultsForwards() {
        PlaceholderFloor floor = new PlaceholderFloor();
        for (int count : new int[]{1000, 0, 1, 5, 1000}) { // a large scratch reused for smaller commands, then again
            CommandStartedEvent event = input(count).event;
            byte[] expected = Forwarded.started(RedactionPolicy.defaults(), event);
            assertArrayEquals(expected, floor.onePass(event.getCommand()), "onePass count=" + count);
            assertArrayEquals(expected, floor.twoPass(event.getCommand()), "twoPass count=" + count);
        }
    }

    @Test
    void placeholderWalkersMatchDefaultsOnEveryScalarTypeTheyHandle() {
        BsonDocument document = new BsonDocument("d", new BsonDouble(1.5)).append("s", new BsonString("x"))
                .append("b", BsonBoolean.FALSE).append("t", new BsonDateTime(1L)).append("", BsonNull.VALUE)
                .append("i", new BsonInt32(7)).append("ts", new BsonTimestamp(3L)).append("l", new BsonInt64(9L))
                .append("m", new BsonDecimal128(Decimal128.parse("1.1")));
        BsonDocument body = new BsonDocument("insert", new BsonString("c")).append("$db", new BsonString("db"));
        CommandStartedEvent event = Inputs.started("insert",
                DriverDocuments.plainWithSequence(body, "documents", Collections.nCopies(3, document)));
        byte[] expected = Forwarded.started(RedactionPolicy.defaults(), event);
        PlaceholderFloor floor = new PlaceholderFloor();
        assertArrayEquals(expected, floor.onePass(event.getCommand()));
        assertArrayEquals(expected, floor.twoPass(event.getCommand()));
    }

    @Test
    void everyFloorIsWhatTheLibraryForwardsForKibDocumentsWithNestedDocumentsAndArrays() {
        FramingCopyFloor framing = new FramingCopyFloor();
        PlaceholderFloor placeholders = new PlaceholderFloor();
        for (int count : new int[]{1, 5, 100}) {
            CommandStartedEvent event = input("kib", count).event;
            assertArrayEquals(Forwarded.started(RedactionPolicy.specOnly(), event), framing.copy(event.getCommand()),
                    "framing copy count=" + count);
            byte[] expected = Forwarded.started(RedactionPolicy.defaults(), event);
            assertArrayEquals(expected, placeholders.onePass(event.getCommand()), "onePass count=" + count);
            assertArrayEquals(expected, placeholders.twoPass(event.getCommand()), "twoPass count=" + count);
        }
    }

    @Test
    void forwardedFloorsCheckThemselvesAndForwardAnEventThatOwnsTheirBytes() {
        for (String docSize : new String[]{"small", "kib"}) {
            FloorInput input = input(docSize, 5);
            for (String floor : new String[]{"framingCopy", "onePass"}) {
                FloorForwardedBenchmark benchmark = new FloorForwardedBenchmark();
                benchmark.floor = floor;
                benchmark.setUp(input); // checks against the library's output itself
                CommandStartedEvent forwarded = benchmark.started(input);
                assertEquals(RawBsonDocument.class, forwarded.getCommand().getClass());
                assertEquals(input.event.getRequestId(), forwarded.getRequestId());
                assertEquals(input.event.getCommandName(), forwarded.getCommandName());
            }
        }
    }

    @Test
    void placeholderWalkersRefuseTypesTheyDoNotHandle() {
        BsonDocument body = new BsonDocument("insert", new BsonString("c")).append("$db", new BsonString("db"));
        BsonDocument binary = new BsonDocument("a", new BsonDocument("b", new BsonBinary(new byte[]{1, 2})));
        BsonDocument command = DriverDocuments.plainWithSequence(body, "documents", Collections.singletonList(binary));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PlaceholderFloor().onePass(command));
        assertEquals("the placeholder floor does not handle type=5", e.getMessage());
    }

    @Test
    void framingCopyRefusesAnUnterminatedDocument() {
        BsonDocument command = input(2).event.getCommand();
        ByteBuf buf = SequenceDocument.buffer(command.getArray("documents").get(1));
        int start = buf.arrayOffset() + buf.position();
        buf.array()[start + BsonOut.readInt(buf.array(), start) - 1] = 1;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new FramingCopyFloor().copy(command));
        assertEquals("document not terminated: index=1 length=" + BsonOut.readInt(buf.array(), start), e.getMessage());
    }

    @Test
    void driverEncodingIsTheVerbatimCopy() {
        for (int count : COUNTS) {
            FloorInput input = input(count);
            CodecEncodingBenchmark benchmark = new CodecEncodingBenchmark();
            benchmark.setUp(input); // checks against specOnly's output itself
            BasicOutputBuffer buffer = benchmark.started(input);
            assertArrayEquals(Forwarded.started(RedactionPolicy.specOnly(), input.event),
                    Arrays.copyOf(buffer.getInternalBuffer(), buffer.getPosition()), "count=" + count);
        }
    }

    @Test
    void indexKeysAreDecimal() {
        BsonOut out = new BsonOut();
        out.reset(new byte[32], false);
        out.putIndexKey(0);
        out.putIndexKey(9);
        out.putIndexKey(10);
        out.putIndexKey(999);
        assertEquals("0\u00009\u000010\u0000999\u0000", new String(out.buf, 0, out.pos, StandardCharsets.US_ASCII));
    }
}

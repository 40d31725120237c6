package io.github.mongoredact.internal.bson;

import io.github.mongoredact.DriverShapes;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDbPointer;
import org.bson.BsonDecimal128;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonJavaScript;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonSymbol;
import org.bson.BsonTimestamp;
import org.bson.BsonUndefined;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The size the plain encoder counts ({@link PlainEncoder#size}) is the length of what it writes, into an exact array or into a
 * scratch that grows, and both are the driver's codec's, byte for byte, for every type.
 */
class PlainEncoderTest {

    /** Asserts that the encoder writes the codec's bytes and that the counted size is their length. */
    static void assertCountsAndWritesWhatTheCodecWrites(final BsonDocument document, final String context) {
        byte[] expected = DriverShapes.encode(document);
        assertEquals(expected.length, new PlainEncoder().size(document), context);
        assertArrayEquals(expected, written(document), context);
        Output growing = new Output();
        growing.growing(new Workspace.Scratch(), new byte[1], 0);
        new PlainEncoder().write(document, growing);
        assertEquals(expected.length, growing.position(), context);
        assertArrayEquals(expected, java.util.Arrays.copyOf(growing.array(), expected.length), context + " (grown)");
    }

    /** @return the document written into an array of exactly its counted size */
    static byte[] written(final BsonDocument document) {
        PlainEncoder encoder = new PlainEncoder();
        byte[] written = new byte[encoder.size(document)];
        Output out = new Output();
        out.exact(written, 0);
        encoder.write(document, out);
        assertEquals(written.length, out.position());
        return written;
    }

    @Test
    void countsWhatThePlainEncoderWritesForEveryType() {
        BsonDocument nested = new BsonDocument("a", new BsonInt32(1)).append("\u00e9t\u00e9", new BsonString("\u20ac \ud83d\ude00"));
        BsonDocument every = new BsonDocument("insert", new BsonString("customers"))
                .append("double", new BsonDouble(1.5)).append("string", new BsonString("k\u00fcnden \u4e2d \ud83d\ude00"))
                .append("lone", new BsonString("a\ud800b\udc00"))
                .append("document", nested).append("array", new BsonArray(java.util.List.of(new BsonInt32(1), nested,
                        new BsonArray(java.util.List.of(BsonBoolean.FALSE)))))
                .append("binary", new BsonBinary(new byte[]{1, 2, 3})).append("old", new BsonBinary((byte) 2, new byte[]{4, 5}))
                .append("undefined", new BsonUndefined()).append("objectId", new BsonObjectId(new ObjectId()))
                .append("boolean", BsonBoolean.TRUE).append("date", new BsonDateTime(42)).append("null", BsonNull.VALUE)
                .append("regex", new BsonRegularExpression("^a.*\u00e9", "im"))
                .append("pointer", new BsonDbPointer("db.coll", new ObjectId()))
                .append("code", new BsonJavaScript("function() {}")).append("symbol", new BsonSymbol("s\u00fc"))
                .append("scoped", new BsonJavaScriptWithScope("x", nested)).append("int32", new BsonInt32(7))
                .append("timestamp", new BsonTimestamp(1, 2)).append("int64", new BsonInt64(8))
                .append("decimal", new BsonDecimal128(Decimal128.parse("1.25"))).append("min", new BsonMinKey())
                .append("max", new BsonMaxKey())
                .append("raw", new RawBsonDocument(nested, new BsonDocumentCodec()));
        assertCountsAndWritesWhatTheCodecWrites(every, "every type");
        // below the recursion limit, counted and written by one loop each: every type at every kind of nesting
        BsonValue deep = every;
        for (int level = 0; level < 3 * PlainEncoder.RECURSION_LIMIT; level++) {
            switch (level % 3) {
                case 0:
                    deep = new BsonDocument("d", deep).append("raw", new RawBsonDocument(nested, new BsonDocumentCodec()));
                    break;
                case 1:
                    deep = new BsonArray(java.util.List.of(new BsonInt32(level), deep, every));
                    break;
                default:
                    deep = new BsonJavaScriptWithScope("f", new BsonDocument("s", deep).append("e", every));
            }
            assertCountsAndWritesWhatTheCodecWrites(new BsonDocument("insert", new BsonString("c")).append("deep", deep),
                    "every type below " + level + " levels");
        }
    }

    @Test
    void countsAndWritesTheDeepestDocumentAsTheCodecWritesIt() throws InterruptedException {
        BsonValue inner = new BsonDocument("x", new BsonInt32(1));
        // a document and an array in turns: MAX_DEPTH - 1 levels, then the top
        for (int levels = 1; levels < BsonBounds.MAX_DEPTH - 1; levels++) {
            inner = levels % 2 == 0 ? new BsonDocument("d", inner) : new BsonArray(java.util.List.of(new BsonString("s"),
                    inner));
        }
        BsonDocument document = new BsonDocument("top", inner);
        // the codec's writer refuses more than 1024 levels: the deepest document is compared on a writer without that limit
        byte[] expected = deepCodecBytes(document);
        Thread small = new Thread(null, () -> assertArrayEquals(expected, written(document)), "stack-256k", 256 * 1024);
        java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
        small.setUncaughtExceptionHandler((t, e) -> thrown.set(e));
        small.start();
        small.join();
        assertEquals(null, thrown.get());
    }

    /** The codec's bytes, encoded on a large stack (the codec recurses) by a writer that allows any depth. */
    private static byte[] deepCodecBytes(final BsonDocument document) throws InterruptedException {
        byte[][] out = new byte[1][];
        Thread large = new Thread(null, () -> {
            org.bson.io.BasicOutputBuffer buffer = new org.bson.io.BasicOutputBuffer();
            new BsonDocumentCodec().encode(new org.bson.BsonBinaryWriter(new org.bson.BsonWriterSettings(Integer.MAX_VALUE),
                    new org.bson.BsonBinaryWriterSettings(), buffer), document,
                    org.bson.codecs.EncoderContext.builder().build());
            out[0] = buffer.toByteArray();
        }, "stack-64m", 64L << 20);
        large.start();
        large.join();
        return out[0];
    }

    @Test
    void writesALoneSurrogateAsTheThreeBytesTheCodecWrites() {
        BsonDocument lone = new BsonDocument("k\ud800", new BsonString("a\udc00b\ud83d"));
        assertCountsAndWritesWhatTheCodecWrites(lone, "lone surrogates");
        assertEquals(4 + 1 + 1 + 3 + 1 + 4 + 1 + 3 + 1 + 3 + 1 + 1, new PlainEncoder().size(lone));
    }

    /**
     * Keys and strings of every length to 20, ASCII with one character past it (two, three and four UTF-8 bytes) or a NUL at
     * each place, written from every start room of a growing scratch to 48 bytes and into an exact array: the ASCII path
     * writes a string with its room checked once, and where a character is not ASCII the general path writes it again.
     */
    @Test
    void writesKeysAndStringsWithACharacterPastAsciiAtEveryPlaceAsTheCodecWrites() {
        String[] odd = {"\u00e9", "\u20ac", "\ud83d\ude00", "\u007f", "\u0080", "\u0000"};
        for (int length = 0; length <= 20; length++) {
            String ascii = "abcdefghijklmnopqrstuvwxyz".substring(0, length);
            assertEveryRoomWritesWhatTheCodecWrites(ascii, ascii);
            for (int at = 0; at < length; at++) {
                for (String c : odd) {
                    String text = ascii.substring(0, at) + c + ascii.substring(at + 1);
                    if (c.equals("\u0000")) {
                        // a NUL is refused in a key, kept in a string
                        BsonDocument nulInKey = new BsonDocument(text, new BsonString(ascii));
                        assertThrows(BsonFormatException.class, () -> written(nulInKey), text);
                        assertEveryRoomWritesWhatTheCodecWrites(ascii, text);
                    } else {
                        assertEveryRoomWritesWhatTheCodecWrites(text, text);
                    }
                }
            }
        }
    }

    private static void assertEveryRoomWritesWhatTheCodecWrites(final String key, final String value) {
        BsonDocument document = new BsonDocument(key, new BsonString(value)).append("k", new BsonSymbol(value));
        String context = "key=" + key.length() + ":" + key + " value=" + value.length();
        byte[] expected = DriverShapes.encode(document);
        assertEquals(expected.length, new PlainEncoder().size(document), context);
        PlainEncoder encoder = new PlainEncoder();
        // into arrays that hold other bytes: every byte of the output is written, the NULs too
        byte[] exact = new byte[expected.length];
        java.util.Arrays.fill(exact, (byte) 0x55);
        Output out = new Output();
        out.exact(exact, 0);
        encoder.write(document, out);
        assertArrayEquals(expected, exact, context);
        for (int room = 1; room <= 48; room++) {
            Output growing = new Output();
            byte[] first = new byte[room];
            java.util.Arrays.fill(first, (byte) 0x55);
            growing.growing(new Workspace.Scratch(), first, 0);
            encoder.write(document, growing);
            assertEquals(expected.length, growing.position(), context + " room=" + room);
            assertArrayEquals(expected, java.util.Arrays.copyOf(growing.array(), expected.length), context + " room=" + room);
            // element by element, as a plain top level is written: the document's elements, without its frame
            Output elements = new Output();
            elements.growing(new Workspace.Scratch(), java.util.Arrays.copyOf(first, room), 0);
            for (java.util.Map.Entry<String, BsonValue> entry : document.entrySet()) {
                encoder.writeElement(entry.getKey(), entry.getValue(), elements);
            }
            assertArrayEquals(java.util.Arrays.copyOfRange(expected, 4, expected.length - 1),
                    java.util.Arrays.copyOf(elements.array(), elements.position()), context + " elements, room=" + room);
        }
    }

    @Test
    void countsSequencesOfEveryLengthAsThePlainEncoderDoes() {
        for (int count : new int[]{0, 1, 2, 10, 101}) {
            BsonArray sequence = new BsonArray();
            ByteBuffer buffer = ByteBuffer.allocate(64 * (count + 1));
            for (int i = 0; i < count; i++) {
                int position = buffer.position();
                buffer.put(DriverShapes.encode(new BsonDocument("_id", new BsonInt32(i))));
                sequence.add(DriverShapes.byteBufDocument(buffer.duplicate(), position));
            }
            BsonDocument command = new BsonDocument("insert", new BsonString("c")).append("$db", new BsonString("shop"))
                    .append("documents", sequence);
            assertCountsAndWritesWhatTheCodecWrites(command, "count=" + count);
        }
    }

    @Test
    void refusesWhatThePlainEncoderRefuses() {
        BsonDocument nulInKey = new BsonDocument("a\0b", new BsonInt32(1));
        assertThrows(BsonFormatException.class, () -> new PlainEncoder().size(nulInKey));
        assertThrows(BsonFormatException.class, () -> written(nulInKey));
        BsonDocument deep = new BsonDocument();
        for (int i = 0; i < BsonBounds.MAX_DEPTH + 1; i++) {
            deep = new BsonDocument("d", deep);
        }
        BsonDocument tooDeep = deep;
        assertThrows(BsonFormatException.class, () -> new PlainEncoder().size(tooDeep));
        Output out = new Output();
        out.growing(new Workspace.Scratch(), new byte[16], 0);
        assertThrows(BsonFormatException.class, () -> new PlainEncoder().write(tooDeep, out));
    }
}

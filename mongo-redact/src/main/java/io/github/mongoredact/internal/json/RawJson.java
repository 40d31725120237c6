package io.github.mongoredact.internal.json;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.BsonFraming;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.bson.DocumentBytes;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonNull;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.ObjectId;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@link TruncatedJson}'s direct path: the relaxed JSON of an owned raw document written straight from its bytes into the
 * {@link JsonTextBuffer} borrowed from its pool (names and strings without escapes copied whole, see {@link JsonStrings}), cut there and
 * made a string once, for the element types whose text is fixed (documents, arrays, strings, ObjectIds, booleans, null,
 * 32- and 64-bit integers), with the driver's writer's separators and escapes; no driver reader, no writer, no string per
 * name or value. Its loop is its own, fused with the writing (through {@code BsonCursor} it measured up to 30 % slower on
 * documents of small elements, jmh's {@code OwnedJsonBenchmark}: see the commit that kept it), but it reads no length
 * itself: every frame is opened by {@link BsonFraming#open}, every name's end and string's length read by
 * {@link BsonBounds}, as the cursor does. Any other type (a double, whose text differs between driver lines; a date...)
 * or any byte that does not add up (a bound those refuse, a boolean neither 0 nor 1) returns null: the caller then
 * renders the document through the driver's writer, which also reports corrupt bytes.
 *
 * <p>It is used only when it writes exactly what the driver's writer on the class path writes: checked once, at class
 * initialisation, on a document holding every type it writes and characters of every escape class.</p>
 *
 * <p>Walks with an explicit stack of frames (kept with the buffer), so the input's depth decides no recursion; a document
 * deeper than the walk's maximum ({@code BsonFraming.open}) goes to the driver's writer. Thread-safe: each render writes
 * into the buffer it borrowed; it allocates the text it returns and, past the buffer's capacity, the buffer's growth.</p>
 */
final class RawJson {
    private static final byte[] NOTHING = new byte[0];
    private static final byte[] COMMA = ascii(", ");
    private static final byte[] COLON = ascii(": ");
    private static final byte[] OID_START = ascii("{\"$oid\": \"");
    private static final byte[] OID_END = ascii("\"}");
    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");
    private static final byte[] NULL = ascii("null");
    private static final byte[] ELLIPSIS = ascii(TruncatedJson.ELLIPSIS);
    static final boolean ENABLED;

    static {
        ENABLED = writesWhatTheDriverWrites();
    }

    private RawJson() {
    }

    private static byte[] ascii(final String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * @return the JSON text, cut as {@link TruncatedJson} cuts, or null when the document holds a type this path does not
     *         write or bytes that do not add up
     */
    @Nullable
    static String render(final RawBsonDocument document, final int maxLength, final String[] skippedTopLevel) {
        byte[] src = DocumentBytes.array(document);
        int off = DocumentBytes.offset(document);
        long limit = maxLength == 0 ? Long.MAX_VALUE : maxLength;
        JsonTextBuffer out = JsonTextBuffer.acquire();
        try {
            if (!elements(src, off, off + DocumentBytes.length(document), out, limit, skippedTopLevel)) {
                return null;
            }
            if (maxLength > 0 && out.length() > maxLength) {
                out.setLength(TruncatedJson.withoutPartialCharacter(out, maxLength));
                out.appendAscii(ELLIPSIS);
            }
            return out.toString();
        } catch (BsonFormatException e) {
            // bytes that do not add up: the driver's writer reports them
            return null;
        } finally {
            out.release();
        }
    }

    /**
     * Writes the elements of the document at {@code off}, which ends at or before {@code limitEnd}, nested ones included,
     * until the text passes {@code limit}: every frame opened by {@link BsonFraming#open}, every name's end and value's
     * length read by {@link BsonBounds} (bytes that do not add up throw).
     *
     * @return false when a type this path does not write was met
     */
    private static boolean elements(final byte[] src, final int off, final int limitEnd, final JsonTextBuffer b,
                                    final long limit, final String[] skippedTopLevel) {
        JsonFrames frames = b.frames;
        int depth = 0;
        frames.open(depth, BsonFraming.open(src, off, limitEnd, depth), false);
        b.appendAscii('{');
        int p = off + 4;
        boolean first = true;
        while (b.length() <= limit) {
            int end = frames.ends[depth];
            boolean inArray = frames.arrays[depth];
            if (p == end) {
                // the end of this level: its terminator is at p
                b.appendAscii(inArray ? ']' : '}');
                if (depth == 0) {
                    return true;
                }
                p++;
                frames.nestedWritten(--depth, b.length());
                first = false;
                continue;
            }
            byte type = src[p];
            // the name's run of characters written as they are, then its NUL from there (most often where the run ends)
            int runEnd = JsonStrings.literalRunEnd(src, p + 1, end);
            int nameEnd = BsonBounds.cstringEnd(src, runEnd, end);
            int v = nameEnd + 1;
            int valueEnd = valueEnd(src, type, v, end, depth);
            if (valueEnd < 0) {
                return false;
            }
            if (depth == 0 && isSkipped(src, p + 1, nameEnd, skippedTopLevel)) {
                p = valueEnd;
                continue;
            }
            if (inArray) {
                b.appendAscii(first ? NOTHING : COMMA);
            } else {
                name(src, p + 1, nameEnd, runEnd == nameEnd, first ? NOTHING : COMMA, b, limit);
            }
            first = false;
            if (type == BsonTypes.DOCUMENT || type == BsonTypes.ARRAY) {
                if (inArray && repeated(depth, type, src, v, valueEnd, b, limit)) {
                    p = valueEnd;
                } else {
                    frames.nested(depth, type, v, valueEnd, b.length());
                    frames.open(++depth, valueEnd - 1, type == BsonTypes.ARRAY);
                    b.appendAscii(type == BsonTypes.ARRAY ? '[' : '{');
                    first = true;
                    p = v + 4;
                }
            } else if (scalar(src, type, v, valueEnd, b, limit)) {
                p = valueEnd;
            } else {
                return false;
            }
        }
        return true;
    }

    /**
     * The end of the value of a type this path writes at {@code v}, in the level at {@code depth} that ends at {@code end}:
     * a string's length read and checked by {@link BsonBounds#stringEnd}, a document's or an array's frame opened by
     * {@link BsonFraming#open} (deeper than the walk's maximum, it throws: the driver's writer decides), a fixed size checked
     * by {@link BsonBounds#checkAvailable}.
     *
     * @return the index after the value, or -1 for a type this path does not write
     */
    private static int valueEnd(final byte[] src, final byte type, final int v, final int end, final int depth) {
        int size;
        switch (type) {
            case BsonTypes.STRING:
                return (int) BsonBounds.stringEnd(src, v, end);
            case BsonTypes.DOCUMENT:
            case BsonTypes.ARRAY:
                return BsonFraming.open(src, v, end, depth + 1) + 1;
            case BsonTypes.OBJECT_ID:
                size = 12;
                break;
            case BsonTypes.BOOLEAN:
                size = 1;
                break;
            case BsonTypes.NULL:
                size = 0;
                break;
            case BsonTypes.INT32:
                size = 4;
                break;
            case BsonTypes.INT64:
                size = 8;
                break;
            default:
                return -1;
        }
        BsonBounds.checkAvailable(v, size, end);
        return v + size;
    }

    /**
     * Writes an array's element that has the type and the bytes of the element before it, written whole, by copying that one's text,
     * when the copy keeps the text within the limit (written again, it would then be the same, every character).
     *
     * @return false, having written nothing, otherwise
     */
    private static boolean repeated(final int depth, final byte type, final byte[] src, final int from, final int to,
                                    final JsonTextBuffer b, final long limit) {
        JsonFrames frames = b.frames;
        int textStart = frames.sameText(depth, type, src, from, to);
        if (textStart < 0) {
            return false;
        }
        int textEnd = frames.sameTextEnd(depth);
        if (b.length() + (long) (textEnd - textStart) > limit) {
            return false;
        }
        b.appendCopy(textStart, textEnd);
        return true;
    }

    /**
     * Writes the separator and the element's name.
     *
     * @param literal whether the name needs no escape (the run of characters written as they are that starts the name, most
     *                often the whole name, ends at its NUL)
     */
    private static void name(final byte[] src, final int nameStart, final int nameEnd, final boolean literal,
                             final byte[] separator, final JsonTextBuffer b, final long limit) {
        if (!literal || !JsonStrings.quoted(separator, src, nameStart, nameEnd, COLON, b, limit)) {
            b.appendAscii(separator);
            JsonStrings.string(src, nameStart, nameEnd, b, limit);
            b.appendAscii(COLON);
        }
    }

    /**
     * Writes the scalar of the given type at {@code v}, whose bounds were checked.
     *
     * @return false for a type this path does not write, or a boolean neither 0 nor 1 (which the driver's reader refuses)
     */
    private static boolean scalar(final byte[] src, final byte type, final int v, final int valueEnd, final JsonTextBuffer b,
                                  final long limit) {
        switch (type) {
            case BsonTypes.STRING:
                if (!JsonStrings.quotedRun(NOTHING, src, v + 4, valueEnd - 1, NOTHING, b, limit)) {
                    JsonStrings.string(src, v + 4, valueEnd - 1, b, limit);
                }
                return true;
            case BsonTypes.OBJECT_ID:
                b.appendAscii(OID_START);
                b.appendHex(src, v, 12);
                b.appendAscii(OID_END);
                return true;
            case BsonTypes.BOOLEAN:
                if (src[v] != 0 && src[v] != 1) {
                    return false;
                }
                b.appendAscii(src[v] != 0 ? TRUE : FALSE);
                return true;
            case BsonTypes.NULL:
                b.appendAscii(NULL);
                return true;
            case BsonTypes.INT32:
                b.appendDecimal(Bytes.readInt(src, v));
                return true;
            case BsonTypes.INT64:
                b.appendDecimal(Bytes.readLong(src, v));
                return true;
            default:
                return false;
        }
    }

    /** Whether the name {@code src[from, to)} (ASCII compared with each name's characters) is one of {@code skipped}. */
    static boolean isSkipped(final byte[] src, final int from, final int to, final String[] skipped) {
        for (String name : skipped) {
            if (name.length() == to - from) {
                boolean same = true;
                for (int i = 0; i < name.length() && same; i++) {
                    same = name.charAt(i) == src[from + i];
                }
                if (same) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether this path writes what the driver's writer on the class path writes, on every type and escape class. */
    private static boolean writesWhatTheDriverWrites() {
        try {
            return difference() == null;
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** @return where this path's text of the probe document first differs from the driver's writer's, or null */
    @Nullable
    static String difference() {
        StringBuilder every = new StringBuilder();
        // a name can not hold NUL; the value, which can, starts with it
        for (char c = 1; c < 0x3000; c++) {
            if (!Character.isSurrogate(c)) {
                every.append(c);
            }
        }
        every.append("\uD83D\uDE00\uFFFD\uFEFF\u2028");
        BsonDocument probe = new BsonDocument("find", new BsonString("users"))
                .append("filter", new BsonDocument("a", new BsonInt32(-7)).append("b", new BsonInt64(Long.MIN_VALUE))
                        .append("c", BsonBoolean.TRUE).append("d", BsonBoolean.FALSE).append("e", BsonNull.VALUE)
                        .append("f", new BsonObjectId(new ObjectId("5f0a0b0c0d0e0f1011121314")))
                        .append("g", new BsonDocument()).append("h", new BsonArray())
                        .append("i", new BsonArray(Arrays.asList(new BsonInt32(1), new BsonDocument("x", new BsonString("y")),
                                new BsonArray(Arrays.asList(new BsonString("z"), new BsonInt64(5)))))))
                .append(every.toString(), new BsonString("\u0000" + every))
                .append("$db", new BsonString("test"));
        RawBsonDocument raw = new RawBsonDocument(probe, new BsonDocumentCodec());
        String[] skipped = {"$db"};
        String ours = render(raw, 0, skipped);
        String driver = TruncatedJson.renderByWriter(raw, 0, skipped);
        if (ours == null) {
            return "the direct path did not write the probe";
        }
        int i = 0;
        while (i < Math.min(ours.length(), driver.length()) && ours.charAt(i) == driver.charAt(i)) {
            i++;
        }
        return i == ours.length() && i == driver.length() ? null : "at " + i + ": direct \""
                + ours.substring(Math.max(0, i - 20), Math.min(ours.length(), i + 20)) + "\", driver's writer \""
                + driver.substring(Math.max(0, i - 20), Math.min(driver.length(), i + 20)) + "\"";
    }
}

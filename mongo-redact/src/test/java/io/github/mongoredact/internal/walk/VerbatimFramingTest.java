package io.github.mongoredact.internal.walk;

import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.BsonFraming;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.rules.CompiledPolicies;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
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
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The walk of a policy that keeps everything (the spec-only policy: framing checked, nothing redacted) refuses exactly what an
 * element-by-element framing check refuses, and accepts the rest whole: held against that check (written out below, on a
 * byte-by-byte C string search) on valid documents of every type and on corruptions of them.
 */
class VerbatimFramingTest {
    private static final int CASES = 20_000;

    @Test
    void refusesExactlyWhatTheElementByElementCheckRefuses() {
        Random random = new Random(20);
        CompiledPolicy specOnly = CompiledPolicies.compile(RedactionPolicy.specOnly());
        CompiledPolicy.RuleSet rules = specOnly.replyRules("find");
        RedactionWalker walker = new RedactionWalker();
        int refused = 0;
        int accepted = 0;
        for (int i = 0; i < CASES; i++) {
            byte[] valid = bytes(document(random, 0));
            // the document at an offset inside a larger array, as a buffer holds it, with bytes after it
            int off = random.nextInt(3);
            byte[] src = new byte[off + valid.length + random.nextInt(12)];
            Arrays.fill(src, (byte) random.nextInt(256));
            System.arraycopy(valid, 0, src, off, valid.length);
            int limit = random.nextBoolean() ? off + valid.length : src.length;
            if (i % 4 != 0) {
                corrupt(src, off, valid.length, random);
            }
            String context = "case=" + i + " bytes=" + Arrays.toString(src) + " off=" + off + " limit=" + limit;
            int expected = reference(src, off, limit);
            if (expected < 0) {
                refused++;
                assertThrows(BsonFormatException.class, () -> walker.size(src, off, limit, rules, false, specOnly), context);
                walker.clear();
                // the copy a verbatim policy writes with nothing to note, straight into its exact array: the same check
                walker.bind(src, off, limit, rules, false, specOnly);
                assertThrows(BsonFormatException.class, () -> walker.write(new byte[src.length], false, false), context);
                walker.clear();
            } else {
                accepted++;
                // kept whole: the output is the document, byte for byte
                int size = walker.size(src, off, limit, rules, false, specOnly);
                assertEquals(expected - off, size, context);
                byte[] out = new byte[size];
                walker.bind(src, off, limit, rules, false, specOnly);
                assertEquals(size, walker.write(out, 0, 0, 0), context);
                assertArrayEquals(Arrays.copyOfRange(src, off, expected), out, context);
                walker.bind(src, off, limit, rules, false, specOnly);
                byte[] direct = new byte[size];
                assertEquals(size, walker.write(direct, false, false), context);
                assertArrayEquals(out, direct, context);
                walker.clear();
                walker.bind(src, off, limit, rules, false, specOnly);
                assertEquals("output does not fit: size=" + size + " capacity=" + (size - 1),
                        assertThrows(IllegalStateException.class, () -> walker.write(new byte[size - 1], false, false),
                                context).getMessage(), context);
                walker.clear();
            }
        }
        assertTrue(refused > CASES / 10 && accepted > CASES / 4, "refused=" + refused + " accepted=" + accepted);
    }

    private static void corrupt(final byte[] src, final int off, final int length, final Random random) {
        int n = 1 + random.nextInt(3);
        for (int k = 0; k < n; k++) {
            int at = off + random.nextInt(length);
            switch (random.nextInt(4)) {
                case 0:
                    src[at] = 0;
                    break;
                case 1:
                    src[at] ^= (byte) (1 << random.nextInt(8));
                    break;
                case 2:
                    src[at] = (byte) random.nextInt(256);
                    break;
                default:
                    src[at] = (byte) (src[at] + (random.nextBoolean() ? 1 : -1));
            }
        }
    }

    private static byte[] bytes(final BsonDocument document) {
        RawBsonDocument raw = new RawBsonDocument(document, new BsonDocumentCodec());
        return Arrays.copyOfRange(raw.getByteBuffer().array(), 0, raw.getByteBuffer().remaining());
    }

    private static BsonDocument document(final Random random, final int depth) {
        BsonDocument document = new BsonDocument();
        int n = random.nextInt(depth == 0 ? 6 : 4);
        for (int i = 0; i < n; i++) {
            document.put(key(random, i), value(random, depth));
        }
        return document;
    }

    private static String key(final Random random, final int i) {
        char[] key = new char[random.nextInt(14)];
        for (int j = 0; j < key.length; j++) {
            key[j] = (char) ('a' + random.nextInt(26));
        }
        return new String(key) + i;
    }

    private static BsonValue value(final Random random, final int depth) {
        switch (random.nextInt(depth < 3 ? 17 : 15)) {
            case 0: return new BsonDouble(random.nextDouble());
            case 1: return new BsonString("s".repeat(random.nextInt(20)));
            case 2: return new BsonBinary(new byte[random.nextInt(6)]);
            case 3: return new BsonObjectId(new ObjectId());
            case 4: return BsonBoolean.valueOf(random.nextBoolean());
            case 5: return new BsonDateTime(random.nextLong());
            case 6: return BsonNull.VALUE;
            case 7: return new BsonRegularExpression("^a.*", "i");
            case 8: return new BsonJavaScript("x");
            case 9: return new BsonInt32(random.nextInt());
            case 10: return new BsonTimestamp(random.nextLong());
            case 11: return new BsonInt64(random.nextLong());
            case 12: return new BsonDecimal128(Decimal128.parse("1.5"));
            case 13: return random.nextBoolean() ? new BsonMinKey() : new BsonMaxKey();
            case 14: return new BsonJavaScriptWithScope("y", new BsonDocument("a", new BsonInt32(1)));
            case 15: return document(random, depth + 1);
            default:
                BsonArray array = new BsonArray();
                for (int i = random.nextInt(4); i > 0; i--) {
                    array.add(value(random, depth + 1));
                }
                return array;
        }
    }

    /** The check as it was written before: element by element, C strings searched byte by byte. @return the end, or -1 */
    private static int reference(final byte[] src, final int off, final int limit) {
        try {
            int[] ends = new int[BsonBounds.MAX_DEPTH];
            int depth = 0;
            ends[0] = BsonFraming.open(src, off, limit, 0);
            int p = off + 4;
            while (true) {
                int end = ends[depth];
                if (p >= end) {
                    if (depth == 0) {
                        return end + 1;
                    }
                    p = end + 1;
                    depth--;
                    continue;
                }
                byte type = src[p];
                int v = bytewiseCstringEnd(src, p + 1, end) + 1;
                int vEnd = type == BsonTypes.REGEX ? regexEnd(src, v, end) : BsonBounds.valueEnd(src, type, v, end);
                if (type == BsonTypes.DOCUMENT || type == BsonTypes.ARRAY) {
                    depth++;
                    ends[depth] = BsonFraming.open(src, v, vEnd, depth);
                    p = v + 4;
                } else if (type == BsonTypes.CODE_WITH_SCOPE) {
                    int scope = BsonFraming.scope(src, v, vEnd);
                    depth++;
                    ends[depth] = BsonFraming.open(src, scope, vEnd, depth);
                    p = scope + 4;
                } else {
                    p = vEnd;
                }
            }
        } catch (BsonFormatException e) {
            return -1;
        }
    }

    private static int regexEnd(final byte[] src, final int v, final int end) {
        return bytewiseCstringEnd(src, bytewiseCstringEnd(src, v, end) + 1, end) + 1;
    }

    private static int bytewiseCstringEnd(final byte[] src, final int start, final int end) {
        for (int i = start; i < end; i++) {
            if (src[i] == 0) {
                return i;
            }
        }
        throw new BsonFormatException("unterminated");
    }
}

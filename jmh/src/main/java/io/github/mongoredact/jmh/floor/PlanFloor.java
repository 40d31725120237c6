package io.github.mongoredact.jmh.floor;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Floor (b) for any command or reply: {@code defaults()}'s output written in one pass into a reusable scratch array, then one
 * exact {@link Arrays#copyOf}, with the policy's decision for every element taken from a plan. The plan is made once, in
 * {@link #of}, by walking the input beside the library's own output for it: per element, in document order, keep it as it is,
 * drop it, replace it by a placeholder (which one), or descend into it. So the floor pays for the walk and the writes and for
 * nothing that decides: what is left of {@code defaults()} when finding the rules costs nothing.
 *
 * <p>It walks the input as the driver hands it over: a plain top level through its entries (a value kept whole is encoded by
 * {@link TopLevel}), the driver's byte-backed documents and a heap {@code RawBsonDocument} through their bytes. A prototype
 * for measurement, for the inputs it was planned on: the same shape with other values of the same sizes would do, another
 * shape fails or writes something else, which the benchmarks' setup and {@code MixFloorsTest} check byte for byte. Not
 * thread-safe: one per benchmark state.</p>
 */
public final class PlanFloor {
    private static final byte KEEP = 0;
    private static final byte DROP = 1;
    private static final byte DESCEND = 2;
    /** {@code PLACEHOLDER + k}: the element becomes a string holding placeholder {@code k}. */
    private static final byte PLACEHOLDER = 3;
    /** Output bytes per source byte at most: a null with an empty key (2 bytes) becomes a placeholder string of 12 or so. */
    private static final int MAX_GROWTH = 8;

    private final byte[] plan;
    private final byte[][] placeholders;
    private final BsonOut out = new BsonOut();
    private final SequenceDocument.Whole whole = new SequenceDocument.Whole();
    private byte[] scratch = new byte[1024];
    private int step;

    private PlanFloor(final byte[] plan, final byte[][] placeholders) {
        this.plan = plan;
        this.placeholders = placeholders;
    }

    /**
     * @param input the command or reply, as the event carries it
     * @param expected what the library forwards for it under {@code defaults()}
     * @return the floor for that input
     * @throws IllegalArgumentException when the output is not the input with elements kept, dropped, replaced by placeholder
     *                                  strings or walked into
     */
    public static PlanFloor of(final BsonDocument input, final byte[] expected) {
        RawBsonDocument encoded = input instanceof RawBsonDocument ? (RawBsonDocument) input
                : new RawBsonDocument(input, new BsonDocumentCodec());
        byte[] in = Arrays.copyOfRange(encoded.getBackingArray(), encoded.getByteOffset(),
                encoded.getByteOffset() + encoded.getByteLength());
        ByteArrayOutputStream plan = new ByteArrayOutputStream();
        List<byte[]> placeholders = new ArrayList<>();
        derive(in, 0, expected, 0, plan, placeholders);
        return new PlanFloor(plan.toByteArray(), placeholders.toArray(new byte[0][]));
    }

    /** @return the number of elements the plan decides on */
    public int planSize() {
        return plan.length;
    }

    /**
     * @param input the command or reply the floor was planned on
     * @return the redacted document in an array of exactly its size
     */
    public byte[] redact(final BsonDocument input) {
        step = 0;
        out.reset(scratch, true);
        if (input.getClass() == BsonDocument.class) {
            writePlain(input);
        } else {
            SequenceDocument.Whole bytes = whole.of(input);
            out.ensure(MAX_GROWTH * bytes.length);
            out.pos = walk(bytes.array, bytes.start, bytes.length, out.buf, out.pos);
        }
        if (step != plan.length) {
            throw new IllegalStateException("plan of " + plan.length + " elements, " + step + " walked");
        }
        scratch = out.buf;
        return Arrays.copyOf(scratch, out.pos);
    }

    /** A plain document (the decoded top level, or a document in it): entry by entry. */
    private void writePlain(final BsonDocument document) {
        out.ensure(4);
        int start = out.pos;
        out.pos += 4;
        for (Map.Entry<String, BsonValue> entry : document.entrySet()) {
            writePlainElement(entry.getKey(), entry.getValue());
        }
        out.ensure(1);
        out.putByte(0);
        out.putInt(start, out.pos - start);
    }

    private void writePlainArray(final BsonArray array) {
        out.ensure(4);
        int start = out.pos;
        out.pos += 4;
        for (int i = 0; i < array.size(); i++) {
            writePlainElement(null, i, array.get(i));
        }
        out.ensure(1);
        out.putByte(0);
        out.putInt(start, out.pos - start);
    }

    private void writePlainElement(final String key, final BsonValue value) {
        writePlainElement(key, -1, value);
    }

    /** One element of a plain document ({@code key}) or array ({@code index}). */
    private void writePlainElement(final String key, final int index, final BsonValue value) {
        int action = plan[step++];
        if (action == DROP) {
            return;
        }
        int keySize = key == null ? BsonOut.indexKeySize(index) : key.length() + 1;
        boolean byteBacked = value instanceof BsonDocument && value.getClass() != BsonDocument.class;
        if (action == KEEP && !byteBacked) {
            out.ensure(1 + keySize + TopLevel.valueSize(value));
            out.putByte(value.getBsonType().getValue());
            putKey(key, index);
            TopLevel.writeValue(out, value);
        } else if (action >= PLACEHOLDER) {
            byte[] placeholder = placeholders[action - PLACEHOLDER];
            out.ensure(1 + keySize + 4 + placeholder.length + 1);
            out.putByte(0x02);
            putKey(key, index);
            out.pos = BsonOut.putString(out.buf, out.pos, placeholder);
        } else if (byteBacked) {
            SequenceDocument.Whole bytes = whole.of((BsonDocument) value);
            out.ensure(1 + keySize + MAX_GROWTH * bytes.length);
            out.putByte(0x03);
            putKey(key, index);
            if (action == KEEP) {
                System.arraycopy(bytes.array, bytes.start, out.buf, out.pos, bytes.length);
                out.pos += bytes.length;
            } else {
                out.pos = walk(bytes.array, bytes.start, bytes.length, out.buf, out.pos);
            }
        } else {
            out.ensure(1 + keySize);
            out.putByte(value.getBsonType().getValue());
            putKey(key, index);
            if (value.isArray()) {
                writePlainArray(value.asArray());
            } else {
                writePlain(value.asDocument());
            }
        }
    }

    private void putKey(final String key, final int index) {
        if (key == null) {
            out.putIndexKey(index);
        } else {
            out.putAscii(key);
        }
    }

    /**
     * Writes the redacted document whose bytes are {@code src[start, start + length)} at {@code at}; the destination has room.
     *
     * @return the position after it
     */
    private int walk(final byte[] src, final int start, final int length, final byte[] dst, final int at) {
        int end = start + length - 1;
        int p = at + 4;
        int i = start + 4;
        while (i < end) {
            int element = i;
            byte type = src[i++];
            int key = i;
            while (src[i++] != 0) {
                // the key's bytes
            }
            int keyEnd = i;
            int valueEnd = Elements.valueEnd(src, i, type, end);
            int action = plan[step++];
            if (action == KEEP) {
                System.arraycopy(src, element, dst, p, valueEnd - element);
                p += valueEnd - element;
            } else if (action == DESCEND) {
                dst[p++] = type;
                System.arraycopy(src, key, dst, p, keyEnd - key);
                p += keyEnd - key;
                p = walk(src, keyEnd, valueEnd - keyEnd, dst, p);
            } else if (action >= PLACEHOLDER) {
                byte[] placeholder = placeholders[action - PLACEHOLDER];
                dst[p++] = 0x02;
                System.arraycopy(src, key, dst, p, keyEnd - key);
                p += keyEnd - key;
                p = BsonOut.putString(dst, p, placeholder);
            }
            i = valueEnd;
        }
        dst[p++] = 0;
        int size = p - at;
        dst[at] = (byte) size;
        dst[at + 1] = (byte) (size >>> 8);
        dst[at + 2] = (byte) (size >>> 16);
        dst[at + 3] = (byte) (size >>> 24);
        return p;
    }

    /** The plan of the document at {@code in[inStart]} against its redacted form at {@code out[outStart]}, element by element. */
    private static void derive(final byte[] in, final int inStart, final byte[] out, final int outStart,
                               final ByteArrayOutputStream plan, final List<byte[]> placeholders) {
        int inEnd = inStart + BsonOut.readInt(in, inStart) - 1;
        int outEnd = outStart + BsonOut.readInt(out, outStart) - 1;
        int i = inStart + 4;
        int o = outStart + 4;
        while (i < inEnd) {
            Elements.Element a = Elements.at(in, i, inEnd);
            Elements.Element b = o < outEnd ? Elements.at(out, o, outEnd) : null;
            if (b == null || !a.sameKey(b)) {
                plan.write(DROP);
            } else if (a.type == b.type && a.sameValue(b)) {
                plan.write(KEEP);
                o = b.end;
            } else if (b.type == 0x02 && b.stringValue().startsWith("?")) {
                byte[] text = b.stringValue().getBytes(StandardCharsets.UTF_8);
                int k = 0;
                while (k < placeholders.size() && !Arrays.equals(placeholders.get(k), text)) {
                    k++;
                }
                if (k == placeholders.size()) {
                    placeholders.add(text);
                }
                if (PLACEHOLDER + k > Byte.MAX_VALUE) {
                    throw new IllegalArgumentException("too many placeholders: " + placeholders.size());
                }
                plan.write(PLACEHOLDER + k);
                o = b.end;
            } else if (a.type == b.type && (a.type == 0x03 || a.type == 0x04)) {
                plan.write(DESCEND);
                derive(in, a.valueStart, out, b.valueStart, plan, placeholders);
                o = b.end;
            } else {
                throw new IllegalArgumentException("element " + a.key() + " of type " + a.type + " became type " + b.type
                        + ": not kept, dropped, a placeholder or walked into");
            }
            i = a.end;
        }
        if (o != outEnd) {
            throw new IllegalArgumentException("the output has elements the input lacks at index " + o);
        }
    }
}

package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.Bytes;

import java.util.ArrayList;
import java.util.List;

/**
 * The one kind of corruption no check of the bytes can tell from a document sent so: a type byte changed to one whose value is
 * shorter (a string made a null) leaves the string's own bytes to be read as elements, and where its text holds a byte that
 * is a type ({@code \t}, {@code \n}, {@code \r}) or a flip makes one, the text after it becomes a key, well-formed BSON that
 * the driver reads as it is. Such a key is judged as every key is (masked where it has the form of data, kept otherwise);
 * docs/policy.md states the limit. The corrupt-input fuzz counts these cases apart, by where the key lies: inside the length
 * prefix, text and NUL of a string, JavaScript or symbol value of the bytes before the corruption. (Two bytes set can make
 * well-formed BSON of anything, a key's NUL and the next type byte a key running over a value: the fuzz counts those apart
 * where the secret is in a key, {@link #inKey}; one byte set never may.)
 */
final class TextAsElements {
    private TextAsElements() {
    }

    /**
     * @param out the forwarded bytes
     * @param at where a piece of a secret starts in {@code out}
     * @param length the piece's length
     * @param originals the input's parts before the corruption
     * @param corrupted the same parts after it
     * @return whether the piece lies in a key of {@code out} that the corrupted input holds, type byte, key and NUL, inside
     * what was a string's length prefix, text and NUL
     */
    static boolean inKeyReadFromText(final byte[] out, final int at, final int length, final List<byte[]> originals,
                                     final List<byte[]> corrupted) {
        int[] key = keyAround(out, 0, at, at + length);
        if (key == null) {
            return false;
        }
        int keyLength = key[1] - key[0];
        for (int part = 0; part < originals.size(); part++) {
            List<int[]> texts = new ArrayList<>();
            textRanges(originals.get(part), 0, texts);
            byte[] c = corrupted.get(part);
            for (int[] text : texts) {
                for (int p = text[0] + 1; p + keyLength <= text[1]; p++) {
                    if (c[p + keyLength] == 0 && regionEquals(c, p, out, key[0], keyLength)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** @return whether {@code [at, at + length)} of the forwarded bytes lies in a key */
    static boolean inKey(final byte[] out, final int at, final int length) {
        return keyAround(out, 0, at, at + length) != null;
    }

    /** @return the number of bytes that differ between the parts before and after the corruption */
    static int changedBytes(final List<byte[]> originals, final List<byte[]> corrupted) {
        int changed = 0;
        for (int part = 0; part < originals.size(); part++) {
            for (int i = 0; i < originals.get(part).length; i++) {
                changed += originals.get(part)[i] != corrupted.get(part)[i] ? 1 : 0;
            }
        }
        return changed;
    }

    private static boolean regionEquals(final byte[] a, final int aOff, final byte[] b, final int bOff, final int length) {
        for (int i = 0; i < length; i++) {
            if (a[aOff + i] != b[bOff + i]) {
                return false;
            }
        }
        return true;
    }

    /** @return the key of the well-formed document at {@code off} (or below) that holds {@code [from, to)}, or null */
    @Nullable
    private static int[] keyAround(final byte[] doc, final int off, final int from, final int to) {
        int end = off + Bytes.readInt(doc, off) - 1;
        int i = off + 4;
        while (i < end) {
            byte type = doc[i];
            int keyStart = i + 1;
            int keyEnd = keyStart;
            while (doc[keyEnd] != 0) {
                keyEnd++;
            }
            if (from >= keyStart && to <= keyEnd) {
                return new int[]{keyStart, keyEnd};
            }
            int v = keyEnd + 1;
            if (type == 0x03 || type == 0x04) {
                int[] inner = keyAround(doc, v, from, to);
                if (inner != null) {
                    return inner;
                }
            }
            i = BsonBounds.valueEnd(doc, type, v, end);
        }
        return null;
    }

    /** Adds {@code {index of the length prefix, index of the NUL}} of every string, JavaScript and symbol value at any depth. */
    private static void textRanges(final byte[] doc, final int off, final List<int[]> ranges) {
        int end = off + Bytes.readInt(doc, off) - 1;
        int i = off + 4;
        while (i < end) {
            byte type = doc[i];
            int v = i + 1;
            while (doc[v] != 0) {
                v++;
            }
            v++;
            if (type == 0x02 || type == 0x0D || type == 0x0E) {
                ranges.add(new int[]{v, v + 4 + Bytes.readInt(doc, v) - 1});
            } else if (type == 0x0F) {
                ranges.add(new int[]{v + 4, v + 8 + Bytes.readInt(doc, v + 4) - 1});
                textRanges(doc, v + 8 + Bytes.readInt(doc, v + 4), ranges);
            } else if (type == 0x03 || type == 0x04) {
                textRanges(doc, v, ranges);
            }
            i = BsonBounds.valueEnd(doc, type, v, end);
        }
    }
}

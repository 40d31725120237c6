package io.github.mongoredact.internal.message;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * A sorted table of lower-case ASCII words, looked up in place on bytes, ignoring ASCII case; the possessive of a word
 * ({@code update's}) is found too. Immutable and thread-safe; a lookup allocates nothing.
 */
final class WordTable {
    private final byte[][] words;

    private WordTable(final byte[][] words) {
        this.words = words;
    }

    /** @return the table of the words of {@code text}, separated by spaces */
    static WordTable of(final String text) {
        String[] split = text.trim().split(" +");
        byte[][] table = new byte[split.length][];
        for (int i = 0; i < split.length; i++) {
            table[i] = split[i].getBytes(StandardCharsets.US_ASCII);
        }
        Comparator<byte[]> unsigned = Arrays::compareUnsigned;
        Arrays.sort(table, unsigned);
        return new WordTable(table);
    }

    /** @return whether {@code src[from, to)} or the word it is the possessive of ({@code 's}) is in the table */
    boolean containsOrPossessive(final byte[] src, final int from, final int to) {
        return contains(src, from, to) || (to - from > 2 && src[to - 2] == '\'' && (src[to - 1] == 's' || src[to - 1] == 'S')
                && contains(src, from, to - 2));
    }

    /** @return whether {@code src[from, to)} is in the table, ignoring ASCII case */
    boolean contains(final byte[] src, final int from, final int to) {
        int low = 0;
        int high = words.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int cmp = compareIgnoreCase(words[mid], src, from, to);
            if (cmp == 0) {
                return true;
            }
            if (cmp < 0) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return false;
    }

    /** @return whether {@code src[from, to)} equals the lower-case {@code word}, ignoring ASCII case */
    static boolean equalsIgnoreCase(final byte[] word, final byte[] src, final int from, final int to) {
        return word.length == to - from && compareIgnoreCase(word, src, from, to) == 0;
    }

    /** Compares a lower-case table entry with the ASCII-lower-cased bytes of {@code src[from, to)}. */
    private static int compareIgnoreCase(final byte[] entry, final byte[] src, final int from, final int to) {
        int len = to - from;
        int n = Math.min(entry.length, len);
        for (int i = 0; i < n; i++) {
            int a = entry[i] & 0xFF;
            int b = lower(src[from + i]) & 0xFF;
            if (a != b) {
                return a - b;
            }
        }
        return entry.length - len;
    }

    private static byte lower(final byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + ('a' - 'A')) : b;
    }
}

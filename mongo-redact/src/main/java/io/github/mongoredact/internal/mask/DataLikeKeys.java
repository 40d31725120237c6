package io.github.mongoredact.internal.mask;

import com.mongodb.lang.Nullable;

/**
 * Which keys have the form of data, and their masked form: a key is read as a dotted path, and each segment that looks like
 * a value becomes {@code ?key}, so {@code stats.2026-12-01.count} reads {@code stats.?key.count} and
 * {@code sessions.<token>} reads {@code sessions.?key}. A key that holds an e-mail address is masked whole
 * ({@code prefs.grace.hopper@navy.example} reads {@code ?key}): an address has dots of its own, which cannot be told from
 * the path's, so no segment around it is known to be a name. The second masked key of a document reads {@code ?key1}, the
 * third {@code ?key2}..., so that the keys of a document stay distinct (a mask is never masked again). A segment looks like
 * a value when it holds
 * <ul>
 *     <li>whitespace (an ASCII space, a no-break or other Unicode space);</li>
 *     <li>an {@code @} after its first byte (e-mail addresses; {@code @type} stays);</li>
 *     <li>a run of {@value #DIGIT_RUN} or more digits (ids, phone numbers, dates such as {@code 2026-12-01}, years);</li>
 *     <li>a run of {@value #HEX_RUN} or more hexadecimal digits holding a decimal digit (ObjectIds, UUIDs, hashes);</li>
 *     <li>from {@value #TOKEN_LENGTH} bytes on, {@value #DIGIT_GROUPS} or more groups of digits right after a letter, or the
 *     mix of a random token
 *     (base62, base64, API keys): word breaks (a change between letters and digits, a capital after a small letter) at 3 of
 *     10 places or more, or at 2 of 10 with fewer than one vowel in five letters. Camel case ({@code createdAtTimestamp})
 *     breaks once per word, and its words hold vowels.</li>
 * </ul>
 * A segment that has the form of an operator's name ({@code $set}, {@code $log10}, {@code $encStrStartsWith}: a {@code $},
 * letters and {@code _}, at most {@value #OPERATOR_DIGITS} digits at the end) is never masked; any other segment that starts
 * with {@code $} is read on what follows the {@code $}: a positional ({@code $[elem]}, {@code $**}) does not look like
 * data, and a {@code $} does not keep a segment that does ({@code $4111111111111111}, a corrupt key run into a value).
 * Array element names are positions and never passed here. Ordinary schema names ({@code firstName}, {@code address.zip},
 * {@code items.0.qty}, {@code _id}, {@code createdAt2}) stay.
 *
 * <p>The walker reads each key once: the loop that finds the key's end notes whether it holds a byte that may start a value
 * ({@link #isSuspect}: digits, {@code @}, space; and bytes past ASCII), and only such a key or one of {@value #TOKEN_LENGTH}
 * bytes or more is looked at again, here. Stateless and allocation-free.</p>
 */
public final class DataLikeKeys {
    /**
     * The last byte of the range the key loops look at more closely: bytes above it (letters, {@code _}, {@code [}...) say
     * nothing alone; those from the space up to it hold the suspect ones ({@link #isSuspect}).
     */
    public static final byte PUNCTUATION_END = '@';

    static final int DIGIT_RUN = 4;
    static final int HEX_RUN = 8;
    public static final int TOKEN_LENGTH = 12;
    static final int DIGIT_GROUPS = 3;
    /** The digits an operator's name may end with ({@code $log10}, {@code $atan2}). */
    static final int OPERATOR_DIGITS = 2;
    /** {@code ?key}: what a masked segment reads. */
    static final byte[] MASK = {'?', 'k', 'e', 'y'};

    private static final int OTHER = 0;
    private static final int LOWER = 1;
    private static final int UPPER = 2;
    private static final int DIGIT = 3;
    /** Per byte: {@link #LOWER}, {@link #UPPER}, {@link #DIGIT} or {@link #OTHER}. */
    private static final byte[] KIND = new byte[256];
    private static final boolean[] HEX = new boolean[256];
    private static final boolean[] VOWEL = new boolean[256];

    static {
        for (int b = 'a'; b <= 'z'; b++) {
            KIND[b] = LOWER;
            KIND[b - 'a' + 'A'] = UPPER;
        }
        for (int b = '0'; b <= '9'; b++) {
            KIND[b] = DIGIT;
            HEX[b] = true;
        }
        for (int b = 'a'; b <= 'f'; b++) {
            HEX[b] = true;
            HEX[b - 'a' + 'A'] = true;
        }
        for (char c : "aeiouAEIOU".toCharArray()) {
            VOWEL[c] = true;
        }
    }

    private DataLikeKeys() {
    }

    /**
     * The test of the key loops for a byte of the space-to-{@code @} range ({@code b > 0x1F && b <= PUNCTUATION_END}): a
     * digit, an {@code @} or a space, after which a key may look like data. Bytes above that range are letters and the like,
     * which say nothing alone: so the common key byte costs the loops no more than the check they make anyway.
     */
    public static boolean isSuspect(final byte b) {
        return (b >= '0' && b <= '9') || b == '@' || b == ' ';
    }

    /**
     * @param suspect whether the key holds a suspect byte ({@link #isSuspect}) or one past ASCII
     * @return whether the key {@code src[off, end)} must be classified: only such keys can look like data
     */
    public static boolean mayLookLikeData(final boolean suspect, final int length) {
        return suspect || length >= TOKEN_LENGTH;
    }

    /** @return whether a segment of the key {@code src[off, end)} looks like data */
    public static boolean isDataLike(final byte[] src, final int off, final int end) {
        int from = off;
        while (from <= end) {
            int to = segmentEnd(src, from, end);
            if (isDataLikeSegment(src, from, to)) {
                return true;
            }
            from = to + 1;
        }
        return false;
    }

    /** @return a copy of the mask that stands for a data-like key or segment ({@code ?key}) */
    public static byte[] mask() {
        return MASK.clone();
    }

    /** @return the index of the dot that ends the segment at {@code from}, or {@code end} */
    public static int segmentEnd(final byte[] src, final int from, final int end) {
        int i = from;
        while (i < end && src[i] != '.') {
            i++;
        }
        return i;
    }

    /**
     * Writes the masked form of the key {@code src[off, end)}, NUL excluded, into {@code dst} at {@code at}, or only counts
     * its bytes when {@code dst} is null (the caller checked the room).
     *
     * @param number the number of the masked key in its document: 0 for the first ({@code ?key}), then {@code ?key1}...
     * @return the bytes written (or counted)
     */
    public static int writeMasked(final byte[] src, final int off, final int end, final int number, @Nullable final byte[] dst,
                           final int at) {
        int digits = number == 0 ? 0 : IndexKeys.digits(number);
        boolean whole = holdsAddress(src, off, end);
        int q = at;
        int from = off;
        while (from <= end) {
            int to = whole ? end : segmentEnd(src, from, end);
            if (whole || isDataLikeSegment(src, from, to)) {
                if (dst != null) {
                    System.arraycopy(MASK, 0, dst, q, MASK.length);
                    if (digits > 0) {
                        IndexKeys.copy(dst, q + MASK.length, number);
                    }
                }
                q += MASK.length + digits;
            } else {
                if (dst != null) {
                    System.arraycopy(src, from, dst, q, to - from);
                }
                q += to - from;
            }
            if (to < end) {
                if (dst != null) {
                    dst[q] = '.';
                }
                q++;
            }
            from = to + 1;
        }
        return q - at;
    }

    /** @return whether the segment {@code src[off, to)} looks like data (see the class documentation) */
    public static boolean isDataLikeSegment(final byte[] src, final int off, final int to) {
        if (off < to && src[off] == '$') {
            // an operator's name is kept; other '$' segments (a positional, a corrupt run of a key into a value, a '$' field
            // name of an application) are read on what follows the '$', which does not keep bytes that look like data
            return !isOperatorName(src, off, to) && looksLikeData(src, off + 1, to);
        }
        return looksLikeData(src, off, to);
    }

    /** @return whether {@code src[from, to)}, a segment or what follows its {@code $}, looks like data */
    private static boolean looksLikeData(final byte[] src, final int from, final int to) {
        if (from >= to || isMask(src, from, to)) {
            return false;
        }
        int digitRun = 0;
        int hexRun = 0;
        int hexDigitAt = -1;
        int groups = 0;
        // the token measure: word breaks inside runs of letters and digits, in halves
        int previous = 0;
        int upperRun = 0;
        int breaks = 0;
        int alphanumeric = 0;
        int letters = 0;
        int vowels = 0;
        for (int i = from; i < to; i++) {
            int b = src[i] & 0xff;
            int kind = KIND[b];
            if (kind == DIGIT) {
                if (digitRun == 0 && (previous == LOWER || previous == UPPER)) {
                    // digits inside a word, not after a separator ({@code day_1_u_1}: an index name)
                    groups++;
                }
                if (++digitRun >= DIGIT_RUN) {
                    return true;
                }
                hexDigitAt = i;
            } else {
                digitRun = 0;
                if (kind == OTHER && (b == ' ' || (b == '@' && i > from) || (b >= 0x80 && isUnicodeSpace(src, i, to)))) {
                    return true;
                }
            }
            hexRun = HEX[b] ? hexRun + 1 : 0;
            if (hexRun >= HEX_RUN && hexDigitAt > i - hexRun) {
                return true;
            }
            if (kind == OTHER) {
                previous = OTHER;
                upperRun = 0;
                continue;
            }
            alphanumeric++;
            if (kind != DIGIT) {
                letters++;
                if (VOWEL[b]) {
                    vowels++;
                }
            }
            if (previous != OTHER) {
                breaks += breakWeight(previous, kind, upperRun);
            }
            upperRun = kind == UPPER ? upperRun + 1 : 0;
            previous = kind;
        }
        return to - from >= TOKEN_LENGTH && isTokenLike(groups, alphanumeric, breaks, letters, vowels);
    }

    /** The verdict of the token measure on a segment long enough for it: digit groups inside words, or enough word breaks. */
    private static boolean isTokenLike(final int groups, final int alphanumeric, final int breaks, final int letters,
                                       final int vowels) {
        if (groups >= DIGIT_GROUPS) {
            return true;
        }
        // breaks / (2 (alphanumeric - 1)) at least 0.3, or 0.2 with fewer than one vowel in five letters
        int pairs = alphanumeric - 1;
        return alphanumeric >= TOKEN_LENGTH && (10 * breaks >= 6 * pairs
                || (10 * breaks >= 4 * pairs && 5 * vowels < letters));
    }

    /**
     * A word break between two letters or digits, in halves: a change between letters and digits and a lower-case letter
     * followed by a capital count 2; the end of a run of capitals ({@code HTTPServer}) 1; the small letter after one capital
     * (the rest of a camel-case word) and capitals in a row 0.
     */
    private static int breakWeight(final int previous, final int kind, final int upperRun) {
        if ((previous == DIGIT) != (kind == DIGIT)) {
            return 2;
        }
        if (previous == LOWER && kind == UPPER) {
            return 2;
        }
        return previous == UPPER && kind == LOWER && upperRun >= 2 ? 1 : 0;
    }

    /** @return whether the key holds an e-mail address: an {@code @} after the first byte of a segment */
    public static boolean holdsAddress(final byte[] src, final int off, final int end) {
        for (int i = off + 1; i < end; i++) {
            if (src[i] == '@' && src[i - 1] != '.') {
                return true;
            }
        }
        return false;
    }

    /**
     * @return whether the segment {@code src[from, to)} has the form of an operator's name: {@code $}, a letter or {@code _},
     * then letters and {@code _}, and at most {@value #OPERATOR_DIGITS} digits at the end ({@code $set}, {@code $log10},
     * {@code $_internalSchemaMinItems}, {@code $encStrStartsWith})
     */
    private static boolean isOperatorName(final byte[] src, final int from, final int to) {
        int i = from + 1;
        while (i < to && (KIND[src[i] & 0xff] == LOWER || KIND[src[i] & 0xff] == UPPER || src[i] == '_')) {
            i++;
        }
        if (i == from + 1) {
            return false;
        }
        int digits = 0;
        while (i < to && KIND[src[i] & 0xff] == DIGIT) {
            i++;
            digits++;
        }
        return i == to && digits <= OPERATOR_DIGITS;
    }

    /** @return whether the segment is a mask this class wrote: {@code ?key} and digits (so that masking is idempotent) */
    private static boolean isMask(final byte[] src, final int from, final int to) {
        if (to - from < MASK.length || src[from] != '?' || src[from + 1] != 'k' || src[from + 2] != 'e' || src[from + 3] != 'y') {
            return false;
        }
        for (int i = from + MASK.length; i < to; i++) {
            if (src[i] < '0' || src[i] > '9') {
                return false;
            }
        }
        return true;
    }

    /** U+00A0, U+1680, U+2000 to U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 (UTF-8 at {@code src[i]}). */
    private static boolean isUnicodeSpace(final byte[] src, final int i, final int to) {
        int b0 = src[i] & 0xff;
        int b1 = i + 1 < to ? src[i + 1] & 0xff : 0;
        if (b0 == 0xC2) {
            return b1 == 0xA0;
        }
        int b2 = i + 2 < to ? src[i + 2] & 0xff : 0;
        if (b0 == 0xE1) {
            return b1 == 0x9A && b2 == 0x80;
        }
        if (b0 == 0xE2) {
            return (b1 == 0x80 && (b2 <= 0x8A || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF)) || (b1 == 0x81 && b2 == 0x9F);
        }
        return b0 == 0xE3 && b1 == 0x80 && b2 == 0x80;
    }
}

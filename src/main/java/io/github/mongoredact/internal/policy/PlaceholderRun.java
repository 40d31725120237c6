package io.github.mongoredact.internal.policy;

import io.github.mongoredact.internal.bson.Output;

/**
 * The tight loop for a document where no rule, cap, limit or fingerprint can apply below: every scalar becomes its
 * placeholder, keys kept (and checked by the cursor). This is what the documents of a sequence are under {@code defaults()}.
 * It writes straight into the output's array while the element fits and stops, leaving the element to the walker's general
 * path, at what it does not handle: a document or array (the walker opens it), JavaScript with scope, a string that already is
 * a placeholder, or an element that does not fit (the general path decides about overflow).
 *
 * <p>The output is the one the general path would write for the same elements: the walker runs this loop only where its own
 * rule lookup would return the inherited {@code REDACT} for every key. Not thread-safe: one per walker.</p>
 */
final class PlaceholderRun {
    private final Output out;
    private final BsonCursor cursor;
    private boolean fixed;
    /** Values replaced by the last {@link #run}. */
    int redacted;

    PlaceholderRun(final Output out, final BsonCursor cursor) {
        this.out = out;
        this.cursor = cursor;
    }

    void fixedPlaceholders(final boolean fixedPlaceholders) {
        this.fixed = fixedPlaceholders;
    }

    /**
     * Replaces the scalars of the document ending at {@code end}, from the element at {@code p}.
     *
     * @return where it stopped: {@code end}, or an element the walker's general path takes
     */
    int run(final int from, final int end) {
        byte[] src = cursor.src();
        int p = from;
        int count = 0;
        while (p < end) {
            byte type = src[p];
            if (type == 0x03 || type == 0x04 || type == 0x0F) {
                break;
            }
            cursor.read(p, end);
            int k = cursor.key;
            int kLen = cursor.keyEnd - k;
            if (type == 0x02 && Placeholders.isPlaceholder(src, cursor.value + 4, cursor.stringLength())) {
                break;
            }
            byte[] placeholder = Placeholders.of(type, fixed);
            int n = placeholder.length;
            int size = 1 + kLen + 1 + 4 + n + 1;
            byte[] dst = out.fits(size);
            if (dst == null) {
                break;
            }
            int at = out.position();
            dst[at] = 0x02;
            System.arraycopy(src, k, dst, at + 1, kLen);
            int q = at + 1 + kLen;
            dst[q] = 0;
            int length = n + 1;
            dst[q + 1] = (byte) length;
            dst[q + 2] = (byte) (length >>> 8);
            dst[q + 3] = 0;
            dst[q + 4] = 0;
            System.arraycopy(placeholder, 0, dst, q + 5, n);
            dst[q + 5 + n] = 0;
            out.advance(size);
            count++;
            p = cursor.valueEnd;
        }
        redacted = count;
        return p;
    }
}

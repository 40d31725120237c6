package io.github.mongoredact.internal.message;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.mask.Placeholders;

import java.nio.charset.StandardCharsets;

/**
 * Scrubs a server message ({@code errmsg}, {@code $err}, {@code writeErrors[].errmsg}, {@code writeConcernError.errmsg},
 * exception messages) by a grammar of the server's messages, deny by default: only the server's own wording and the
 * structure stay, every value-like token becomes {@code ?} and every quoted string {@code "?"} or {@code '?'}, so
 * {@code dup key: { email: "alice@example.com" }} reads {@code dup key: { email: ? }}.
 *
 * <p>What stays (all ASCII; the output is ASCII whatever the input):</p>
 * <ul>
 *     <li>words of the server's prose and the names of commands and {@code $} operators ({@link ServerMessageVocabulary});
 *     a quoted {@code '_id'} or operator name;</li>
 *     <li>whitespace (each run becomes its first byte) and punctuation;</li>
 *     <li>inside a document that follows server prose ({@code dup key: {}, {@code type. {}), the field names before each
 *     {@code :}, shaped like field names; the value after each {@code :} is one {@code ?} whatever it holds;</li>
 *     <li>in a duplicate key message ({@code E11000}), the namespace after {@code collection:} and the index name after
 *     {@code index:}: metadata, kept like the collection name of a command.</li>
 * </ul>
 * <p>Field names and index names follow the rule for keys ({@code DataLikeKeys}): where keys that look like data are masked,
 * their segments that look like data read {@code ?key}, so {@code dup key: { stats.2026-12-01.n: ? }} reads
 * {@code dup key: { stats.?key.n: ? }} and its index {@code stats.2026-12-01.n_1} reads {@code stats.?key.n_1}.</p>
 * <p>Numbers, ObjectIds, dates, UUIDs, e-mail addresses, anything with a byte outside ASCII, a document that does not
 * follow server prose, a call such as {@code ObjectId('...')} and everything after {@code near index} (a regular
 * expression error quotes the pattern there) become {@code ?}. A {@code /} inside a value ends the scan: a regular
 * expression can quote any bracket, so nothing after it can be parsed safely. A document whose quotes are not where the
 * server prints them (after {@code : , { [ (}, before {@code , : } ] )}), or that does not close, is one value too: its
 * keys cannot be told from the values there.</p>
 *
 * <p>Work is linear and bounded: at most {@link ServerMessageScanner#MAX_INPUT} bytes are read and the output stops
 * after about {@link ServerMessageScanner#OUTPUT_BUDGET} bytes; a cut message ends with {@code ...}. Scrubbing is
 * idempotent, and a placeholder of a redacted value ({@code ?string}) passes unchanged. Works on UTF-8 bytes in two
 * modes by the same code: counting (no destination) and writing. Stateless and thread-safe.</p>
 */
public final class MessageScrubber {
    private MessageScrubber() {
    }

    /**
     * Scrubs a Java string (allocates: for failure paths).
     *
     * @param message the message
     * @return the scrubbed message
     */
    @Nullable
    public static String scrub(@Nullable final String message) {
        return scrub(message, true);
    }

    /**
     * Scrubs a Java string (allocates: for failure paths).
     *
     * @param message the message
     * @param maskDataLikeKeys whether field and index names that look like data are masked ({@code ?key})
     * @return the scrubbed message
     */
    @Nullable
    public static String scrub(@Nullable final String message, final boolean maskDataLikeKeys) {
        if (message == null) {
            return null;
        }
        // a huge message is cut before it is encoded, so the work stays bounded
        boolean cut = message.length() > ServerMessageScanner.MAX_INPUT;
        String bounded = cut ? message.substring(0, ServerMessageScanner.MAX_INPUT) : message;
        byte[] src = bounded.getBytes(StandardCharsets.UTF_8);
        if (Placeholders.isPlaceholder(src, 0, src.length)) {
            return message;
        }
        int length = new ServerMessageScanner(src, 0, src.length, null, 0, cut, maskDataLikeKeys).run();
        byte[] dst = new byte[length];
        new ServerMessageScanner(src, 0, src.length, dst, 0, cut, maskDataLikeKeys).run();
        return new String(dst, StandardCharsets.US_ASCII);
    }

    /**
     * Scrubs {@code src[off, off + len)} into {@code dst} at {@code dstIndex}, or only counts when {@code dst} is null.
     * Both modes produce the same length.
     *
     * @return the number of bytes written (or that would be written)
     */
    public static int scrub(final byte[] src, final int off, final int len, @Nullable final byte[] dst, final int dstIndex) {
        return scrub(src, off, len, dst, dstIndex, true);
    }

    /** As {@link #scrub(byte[], int, int, byte[], int)}, masking names that look like data only when asked. */
    public static int scrub(final byte[] src, final int off, final int len, @Nullable final byte[] dst, final int dstIndex,
                     final boolean maskDataLikeKeys) {
        if (Placeholders.isPlaceholder(src, off, len)) {
            // a value a first pass already replaced ("?string"): scrubbing it again must not change it
            if (dst != null) {
                System.arraycopy(src, off, dst, dstIndex, len);
            }
            return len;
        }
        return new ServerMessageScanner(src, off, len, dst, dstIndex, false, maskDataLikeKeys).run();
    }
}

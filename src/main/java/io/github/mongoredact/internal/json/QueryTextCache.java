package io.github.mongoredact.internal.json;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonBounds;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.DocumentBytes;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;

import java.util.Arrays;

/**
 * {@link QueryText#render} for the commands of one kind (a sink keeps one per server, database, collection and command
 * name), remembering the last texts it rendered: a command whose shown fields (all but those the text leaves out) have the
 * same bytes as a remembered command's gets that command's text, the same characters, without rendering again. Under a
 * policy that replaces values by placeholders, the commands of one operation do: their copies differ only in the session,
 * the cluster time and the signature, which the text leaves out.
 *
 * <p>Bounded: {@value #ENTRIES} texts, each of a command whose shown fields take at most {@value #MAX_SHOWN_BYTES} bytes
 * (larger ones are rendered every time). A kind whose commands keep differing (values kept by the policy) stops remembering
 * once {@value #TRIAL} renders found no text again in four: it then renders as {@link QueryText} does, after one check.</p>
 *
 * <p>Thread-safe: a remembered text and its key are immutable, published without a lock (the counters and the slots are
 * written racily: a lost write costs a render, never a wrong text).</p>
 */
public final class QueryTextCache {
    /** The most bytes of shown fields a remembered command may take. */
    static final int MAX_SHOWN_BYTES = 512;
    /** The texts remembered. */
    static final int ENTRIES = 2;
    /** Renders after which a kind whose texts are found again less than once in four stops remembering. */
    static final int TRIAL = 16;
    private final int maxLength;
    private final Entry[] entries = new Entry[ENTRIES];
    private int next;
    private int found;
    private int rendered;

    /** @param maxLength the texts' maximum length, as {@link QueryText#render} takes it */
    public QueryTextCache(final int maxLength) {
        this.maxLength = maxLength;
    }

    /** @return {@link QueryText#render}'s text of a redacted, owned command, remembered or rendered */
    public String render(final BsonDocument command) {
        if (!(command instanceof RawBsonDocument) || !remembering()) {
            return QueryText.render(command, maxLength);
        }
        RawBsonDocument raw = (RawBsonDocument) command;
        byte[] src = DocumentBytes.array(raw);
        int off = DocumentBytes.offset(raw);
        int end = RawJson.documentEnd(src, off);
        int shown;
        try {
            shown = end < 0 ? -1 : shown(src, off + 4, end, null, false);
        } catch (BsonFormatException e) {
            shown = -1;
        }
        if (shown < 0 || shown > MAX_SHOWN_BYTES) {
            // bytes that do not add up are rendered (and reported) by the render; large commands are not remembered
            return QueryText.render(command, maxLength);
        }
        for (Entry entry : entries) {
            if (entry != null && entry.shown.length == shown && shown(src, off + 4, end, entry.shown, false) == shown) {
                found++;
                return entry.text;
            }
        }
        String text = QueryText.render(command, maxLength);
        rendered++;
        int slot = next;
        byte[] key = new byte[shown];
        shown(src, off + 4, end, key, true);
        entries[slot] = new Entry(key, text);
        next = (slot + 1) % ENTRIES;
        return text;
    }

    /** Whether this kind still remembers texts: during its trial, and after it while one in four is found again. */
    private boolean remembering() {
        int renders = rendered;
        return renders < TRIAL || found >= renders / 4;
    }

    /**
     * Visits the shown elements of {@code src[from, end)} in order: without {@code key}, counts their bytes (stopping once
     * past the maximum); with it, compares them with {@code key} or, when {@code copy}, copies them into it.
     *
     * @return the bytes visited; -1 when a comparison finds a difference
     */
    private static int shown(final byte[] src, final int from, final int end, @Nullable final byte[] key, final boolean copy) {
        int k = 0;
        int p = from;
        while (p < end && (key != null || k <= MAX_SHOWN_BYTES)) {
            int nameEnd = BsonBounds.cstringEnd(src, p + 1, end);
            int valueEnd = BsonBounds.valueEnd(src, src[p], nameEnd + 1, end);
            if (!QueryText.isLeftOut(src, p + 1, nameEnd)) {
                int length = valueEnd - p;
                if (copy && key != null) {
                    System.arraycopy(src, p, key, k, length);
                } else if (key != null && (length > key.length - k || !Arrays.equals(src, p, valueEnd, key, k, k + length))) {
                    return -1;
                }
                k += length;
            }
            p = valueEnd;
        }
        return k;
    }

    /** A remembered text and the shown elements of the command it was rendered from. Immutable. */
    private static final class Entry {
        final byte[] shown;
        final String text;

        Entry(final byte[] shown, final String text) {
            this.shown = shown;
            this.text = text;
        }
    }
}

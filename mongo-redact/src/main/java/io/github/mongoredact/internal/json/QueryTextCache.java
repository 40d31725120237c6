package io.github.mongoredact.internal.json;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.DocumentBytes;
import io.github.mongoredact.internal.walk.BsonCursor;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;

import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Map.Entry;

/**
 * {@link QueryText#render} for the commands of one kind (a sink keeps one per server, database, collection and command
 * name), remembering the last texts it rendered: a command whose shown fields (all but those the text leaves out) have the
 * same bytes as a remembered command's gets that command's text, the same characters, without rendering again. Under a
 * policy that replaces values by placeholders, the commands of one operation do: their copies differ only in the session,
 * the cluster time and the signature, which the text leaves out.
 *
 * <p>Bounded: {@value #ENTRIES} texts, each of a command whose shown fields take at most {@value #MAX_SHOWN_BYTES} bytes
 * (larger ones are rendered every time). A kind whose commands keep differing (values kept by the policy) stops remembering
 * when fewer than four texts were found again while it rendered {@value #TRIAL}: it then renders as {@link QueryText} does,
 * after one check.</p>
 *
 * <p>Thread-safe: a remembered text and its key are immutable, published without a lock (the counters and the slots are
 * written racily: a lost write costs a render, never a wrong text).</p>
 */
public final class QueryTextCache {
    /** The most bytes of shown fields a remembered command may take. */
    static final int MAX_SHOWN_BYTES = 512;
    /** The texts remembered. */
    static final int ENTRIES = 2;
    /** The renders of a trial: a kind that finds fewer than a quarter as many texts again during one stops remembering. */
    static final int TRIAL = 16;
    private final int maxLength;
    /** The remembered texts, each with the shown elements of the command it was rendered from; immutable pairs. */
    @SuppressWarnings("unchecked")
    private final Entry<byte[], String>[] entries = new Entry[ENTRIES];
    /** The entry found or stored last. */
    private int last;
    /** Texts found again in this trial, counted up to {@value #TRIAL} (then no longer written). */
    private int found;
    /** Texts rendered in this trial. */
    private int rendered;
    /** Whether this kind stopped remembering. */
    private boolean off;

    /** @param maxLength the texts' maximum length, as {@link QueryText#render} takes it */
    public QueryTextCache(final int maxLength) {
        this(maxLength, true);
    }

    /**
     * @param maxLength the texts' maximum length, as {@link QueryText#render} takes it
     * @param remembers whether it remembers texts at all (else it renders every text, as {@link QueryText} does)
     */
    public QueryTextCache(final int maxLength, final boolean remembers) {
        this.maxLength = maxLength;
        this.off = !remembers;
    }

    /** @return whether this kind still remembers texts: not once it stopped, nor where it was made not to */
    public boolean remembers() {
        return !off;
    }

    /** @return {@link QueryText#render}'s text of a redacted, owned command, remembered or rendered */
    public String render(final BsonDocument command) {
        if (!(command instanceof RawBsonDocument) || off) {
            return QueryText.render(command, maxLength);
        }
        RawBsonDocument raw = (RawBsonDocument) command;
        byte[] key;
        // the top level is read by a cursor borrowed with a text buffer, given back before the render borrows one
        JsonTextBuffer scratch = JsonTextBuffer.acquire();
        try {
            BsonCursor cursor = scratch.cursor;
            byte[] src = DocumentBytes.array(raw);
            int from = DocumentBytes.offset(raw);
            cursor.bind(src, from + DocumentBytes.length(raw), false);
            int end = cursor.open(from, 0);
            // the entry found or stored last first: one walk when the command is that one again
            int latest = last;
            for (int i = 0; i < ENTRIES; i++) {
                Entry<byte[], String> entry = entries[(latest + i) % ENTRIES];
                if (entry != null && shown(cursor, src, from + 4, end, entry.getKey(), false) == entry.getKey().length) {
                    found(latest, (latest + i) % ENTRIES);
                    return entry.getValue();
                }
            }
            int shown = shown(cursor, src, from + 4, end, null, false);
            key = shown > MAX_SHOWN_BYTES ? null : new byte[shown];
            if (key != null) {
                shown(cursor, src, from + 4, end, key, true);
            }
        } catch (BsonFormatException e) {
            key = null;
        } finally {
            scratch.release();
        }
        // bytes that do not add up are rendered (and reported) by the render; large commands are not remembered
        String text = QueryText.render(command, maxLength);
        if (key != null) {
            remember(key, text);
        }
        return text;
    }

    private void found(final int latest, final int slot) {
        if (found < TRIAL) {
            found++;
        }
        if (latest != slot) {
            last = slot;
        }
    }

    /** Stores a text in the place of the one found or stored longest ago; ends a trial of {@value #TRIAL} renders. */
    private void remember(final byte[] key, final String text) {
        int slot = (last + 1) % ENTRIES;
        entries[slot] = new AbstractMap.SimpleImmutableEntry<>(key, text);
        last = slot;
        if (++rendered == TRIAL) {
            if (found < TRIAL / 4) {
                off = true;
                // nor keeps the texts it remembered (under a policy that keeps values, they hold them)
                Arrays.fill(entries, null);
            }
            rendered = 0;
            found = 0;
        }
    }

    /** @return how many texts this kind remembers */
    int remembered() {
        int held = 0;
        for (Entry<byte[], String> entry : entries) {
            held += entry != null ? 1 : 0;
        }
        return held;
    }

    /**
     * Visits the shown elements of {@code src[from, end)} in order, each read by the cursor (bound to {@code src}; bytes that
     * do not add up throw): without {@code key}, counts their bytes (stopping once past the maximum); with it, compares them
     * with {@code key} or, when {@code copy}, copies them into it.
     *
     * @return the bytes visited; -1 when a comparison finds a difference
     */
    private static int shown(final BsonCursor cursor, final byte[] src, final int from, final int end, @Nullable final byte[] key,
                             final boolean copy) {
        int k = 0;
        int p = from;
        while (p < end && (key != null || k <= MAX_SHOWN_BYTES)) {
            cursor.read(p, end);
            int valueEnd = cursor.valueEnd();
            if (!QueryText.isLeftOut(src, cursor.key(), cursor.key() + cursor.keyLength())) {
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
}

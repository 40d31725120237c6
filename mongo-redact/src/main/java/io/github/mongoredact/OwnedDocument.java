package io.github.mongoredact;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonFormatException;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.bson.DocumentBytes;
import io.github.mongoredact.internal.json.QueryText;
import io.github.mongoredact.internal.json.TruncatedJson;
import io.github.mongoredact.internal.walk.TopLevelFields;
import org.bson.BsonDocument;
import org.bson.BsonSerializationException;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * A read-only view of a document the {@link RedactingCommandListener} owns: the redacted copy of a started command
 * ({@link StartedCommand#getCommandView()}) or of a reply ({@link CompletedCommand#getReplyView()}), one array of BSON of
 * exactly its size. What a sink of its own needs from it, without the bytes: its size, its text as the driver's command log
 * and OpenTelemetry's {@code db.query.text} show it, and its top-level fields, each read as a copy.
 *
 * <p>What it shows is what the policy let through: a value the policy replaced is a placeholder string here too
 * ({@code "?"}, {@code "?string"}...), so a field read with the type of the original value tells that the value is the
 * original's. A document that could not be copied is the marker {@code {"$redactionError": "..."}}, a spec-redacted one
 * {@code {}}.</p>
 *
 * <p>Lifetime and threading: immutable; it may be kept as long as its event and read from any thread. Made on each call of
 * the event's getter over the event's own array (no copy), so that a sink that does not ask for it costs nothing; two views of
 * equal bytes are {@linkplain #equals equal}.</p>
 *
 * @since 0.5
 */
public final class OwnedDocument {
    /** Raw: the listener's copies, its markers and the empty document are; read in place. */
    private final BsonDocument document;

    /** @param document an owned, immutable document of the listener: a copy it wrote, a marker, or the empty document */
    OwnedDocument(final BsonDocument document) {
        this.document = document;
    }

    /**
     * @return the document's size in bytes
     * @since 0.5
     */
    public int getSize() {
        return DocumentBytes.length(document);
    }

    /**
     * The document as relaxed extended JSON, as the driver's command log writes it, cut as the logging specification cuts: a
     * text longer than {@code maxLength} characters loses its end and gets {@code " ..."} (one of exactly {@code maxLength}
     * is shown whole), and a cut never leaves part of a character. Rendering stops at the limit, so its cost is that of the
     * text shown. This is what {@code io.github.mongoredact.log.CommandLogSink} prints.
     *
     * @param maxLength the most characters before {@code " ..."}, 1 or more; 0 for no limit
     * @return the text
     * @throws IllegalArgumentException if {@code maxLength} is negative
     * @throws org.bson.BSONException where the copy's bytes are not BSON: under
     *         {@link RedactionPolicy#specOnly()} a sequence document (an insert's {@code documents}...) is copied as the
     *         driver held it, its framing checked, not what lies inside (the log and OpenTelemetry sinks show such a copy as
     *         {@code {"$renderError": "<exception class>"}} and count it)
     * @since 0.5
     */
    public String toJson(final int maxLength) {
        return TruncatedJson.render(document, checkedLength(maxLength));
    }

    /**
     * The document as OpenTelemetry's {@code db.query.text}: the text of {@link #toJson(int)} without the top-level
     * {@code lsid}, {@code $db}, {@code $clusterTime} and {@code signature}, cut the same way. This is what
     * {@code io.github.mongoredact.otel.OpenTelemetryCommandSink} and the driver-tracing bridge record.
     *
     * @param maxLength the most characters before {@code " ..."}, 1 or more; 0 for no limit
     * @return the text
     * @throws IllegalArgumentException if {@code maxLength} is negative
     * @throws org.bson.BSONException where the copy's bytes are not BSON, as {@link #toJson(int)}
     * @since 0.5
     */
    public String toQueryText(final int maxLength) {
        return QueryText.render(document, checkedLength(maxLength));
    }

    /**
     * @return the name of the first top-level field (a command's name), or null for the empty document
     * @since 0.5
     */
    @Nullable
    public String getFirstKey() {
        RawBsonDocument element = element(null);
        return element == null ? null : element.getFirstKey();
    }

    /**
     * @param key the name of a top-level field
     * @return whether the document has a top-level field of that name
     * @since 0.5
     */
    public boolean containsKey(final String key) {
        return locate(raw(), utf8(notNull("key", key))) >= 0;
    }

    /**
     * The value of a top-level field, read as a copy: a scalar as the driver's value of its type ({@code BsonInt64},
     * {@code BsonString}...), a document or an array as an immutable raw value ({@code RawBsonDocument}, {@code RawBsonArray})
     * over a copy of its bytes. The first field of that name, as the server reads it.
     *
     * @param key the name of a top-level field
     * @return a copy of its value, or null when the document has no field of that name
     * @since 0.5
     */
    @Nullable
    public BsonValue get(final String key) {
        RawBsonDocument element = element(utf8(notNull("key", key)));
        return element == null ? null : element.get(key);
    }

    /**
     * @param other another object
     * @return whether it is a view of a document with the same bytes
     */
    @Override
    public boolean equals(final Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof OwnedDocument)) {
            return false;
        }
        RawBsonDocument raw = raw();
        RawBsonDocument that = ((OwnedDocument) other).raw();
        int length = DocumentBytes.length(raw);
        int from = DocumentBytes.offset(raw);
        int thatFrom = DocumentBytes.offset(that);
        return length == DocumentBytes.length(that) && Arrays.equals(DocumentBytes.array(raw), from,
                from + length, DocumentBytes.array(that), thatFrom, thatFrom + length);
    }

    /** @return a hash of the document's bytes */
    @Override
    public int hashCode() {
        RawBsonDocument raw = raw();
        byte[] src = DocumentBytes.array(raw);
        int from = DocumentBytes.offset(raw);
        int end = from + DocumentBytes.length(raw);
        int hash = 1;
        for (int i = from; i < end; i++) {
            hash = 31 * hash + src[i];
        }
        return hash;
    }

    /** @return the document's size, never its content (a log line that needs the text asks for it with its limit) */
    @Override
    public String toString() {
        return "OwnedDocument{size=" + getSize() + "}";
    }

    /** @return the element of that name (the first element for null) as a document of its own, over a copy of its bytes */
    @Nullable
    private RawBsonDocument element(@Nullable final byte[] name) {
        RawBsonDocument raw = raw();
        long found = locate(raw, name);
        if (found < 0) {
            return null;
        }
        int start = (int) (found >>> 32);
        int end = (int) found;
        byte[] bytes = new byte[end - start + 5];
        Bytes.writeInt(bytes, 0, bytes.length);
        System.arraycopy(DocumentBytes.array(raw), start, bytes, 4, end - start);
        return new RawBsonDocument(bytes);
    }

    /** @return the document as raw bytes: itself (a plain document, which the listener never hands over, is encoded) */
    private RawBsonDocument raw() {
        return document instanceof RawBsonDocument ? (RawBsonDocument) document
                : new RawBsonDocument(document, new BsonDocumentCodec());
    }

    private static long locate(final RawBsonDocument raw, @Nullable final byte[] name) {
        try {
            return TopLevelFields.locate(DocumentBytes.array(raw), DocumentBytes.offset(raw), DocumentBytes.length(raw), name);
        } catch (BsonFormatException e) {
            // never for a copy the listener wrote, whose framing it checked
            throw new BsonSerializationException("the owned document's bytes do not add up: " + e.getMessage());
        }
    }

    private static byte[] utf8(final String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    private static int checkedLength(final int maxLength) {
        if (maxLength < 0) {
            throw new IllegalArgumentException("maxLength must be 0 (no limit) or more, was " + maxLength);
        }
        return maxLength;
    }
}

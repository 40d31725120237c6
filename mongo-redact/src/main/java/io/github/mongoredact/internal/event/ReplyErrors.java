package io.github.mongoredact.internal.event;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.bson.DocumentBytes;
import io.github.mongoredact.internal.rules.ReplyCursorIds;
import io.github.mongoredact.internal.walk.BsonCursor;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.nio.charset.StandardCharsets;

/**
 * Finds the first write error or write concern error that a reply reports under {@code ok: 1}, and the id of the cursor it
 * leaves open ({@code cursor.id}, where the policy's copy would show it: {@link ReplyCursorIds}), by scanning its top level
 * bytes, in place: it needs no workspace, so a callback that reads only a reply's facts borrows this scanner alone.
 * Allocation-free unless an error is found (its code name is then decoded).
 */
final class ReplyErrors implements ReplyFacts, DocumentBytes.Viewer {
    private static final byte[] WRITE_ERRORS = "writeErrors".getBytes(StandardCharsets.UTF_8);
    private static final byte[] WRITE_CONCERN_ERROR = "writeConcernError".getBytes(StandardCharsets.UTF_8);
    private static final byte[] CODE = "code".getBytes(StandardCharsets.UTF_8);
    private static final byte[] CODE_NAME = "codeName".getBytes(StandardCharsets.UTF_8);
    private static final byte[] CURSOR = "cursor".getBytes(StandardCharsets.UTF_8);
    private static final byte[] ID = "id".getBytes(StandardCharsets.UTF_8);

    /** Reads the reply's top level and its error document, in place. */
    private final BsonCursor cursor = new BsonCursor();
    /** The reply's bytes during {@link #read}, viewed where they lie ({@link DocumentBytes#view}); null between reads. */
    @Nullable
    private byte[] source;
    private int sourceOff;
    private int sourceEnd;

    /** The reply's size in bytes as received, 0 when not known (a plain document). */
    int size;
    int code;
    @Nullable
    String codeName;
    /** The {@code int64} {@code cursor.id} of the reply, 0 when there is none or the copy would not show it. */
    long cursorId;

    /** @return this scanner, cleared: the facts of a reply that could not be read */
    ReplyErrors cleared() {
        size = 0;
        code = 0;
        codeName = null;
        cursorId = 0;
        return this;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public int errorCode() {
        return code;
    }

    @Override
    @Nullable
    public String errorCodeName() {
        return codeName;
    }

    @Override
    public long cursorId() {
        return cursorId;
    }

    /**
     * Reads the reply's size (in O(1) from a byte-backed reply) and scans it for errors and its cursor id: in place where its
     * bytes are in a heap array, else through the document API. Keeps no reference to the reply's bytes after it returns.
     *
     * @param cursorIds whether the copy of the reply shows its cursor id ({@link ReplyCursorIds#NEVER} ...)
     * @return this scanner with the result: read it before its next read
     */
    ReplyErrors read(final BsonDocument reply, final byte cursorIds) {
        if (DocumentBytes.view(reply, this)) {
            try {
                byte[] src = source;
                if (src == null) {
                    throw new IllegalStateException("the reply's view set no source");
                }
                scan(src, sourceOff, sourceEnd, cursorIds);
                size = sourceEnd - sourceOff;
            } finally {
                cursor.clear();
                source = null;
            }
        } else {
            scan(reply, cursorIds);
            size = DocumentBytes.isByteBacked(reply) ? DocumentBytes.length(reply) : 0;
        }
        return this;
    }

    /** The view's target: the reply's bytes, for {@link #read} only. */
    @Override
    public void source(final byte[] array, final int off, final int end) {
        source = array;
        sourceOff = off;
        sourceEnd = end;
    }

    /**
     * Scans the reply at {@code src[off, end)} in one pass over its top level; the result is in {@link #code} (0 when none)
     * and {@link #codeName}. The first document of {@code writeErrors} wins over {@code writeConcernError}. The cursor id is
     * the first {@code int64} {@code id} of the first {@code cursor} document, as a reader of the copy finds it. Every
     * document is read by the cursor, its frame opened there ({@code BsonFraming.open}): bytes that do not add up throw.
     */
    void scan(final byte[] src, final int off, final int end, final byte cursorIds) {
        code = 0;
        codeName = null;
        cursorId = 0;
        int writeErrors = -1;
        int writeConcernError = -1;
        boolean cursorWanted = cursorIds != ReplyCursorIds.NEVER;
        int cursorDocument = -1;
        BsonCursor element = cursor;
        element.bind(src, end, false);
        int documentEnd = element.open(off, 0);
        for (int p = off + 4; p < documentEnd; p = element.valueEnd()) {
            element.read(p, documentEnd);
            if (element.type() == BsonTypes.ARRAY && writeErrors < 0 && element.keyIs(WRITE_ERRORS)) {
                writeErrors = element.value();
            } else if (element.type() == BsonTypes.DOCUMENT && writeConcernError < 0 && element.keyIs(WRITE_CONCERN_ERROR)) {
                writeConcernError = element.value();
            } else if (cursorWanted && element.type() == BsonTypes.DOCUMENT && cursorDocument < 0 && element.keyIs(CURSOR)) {
                cursorDocument = element.value();
            }
        }
        if (cursorDocument >= 0) {
            long value = find(cursorDocument, 1, ID, BsonTypes.INT64) ? Bytes.readLong(src, element.value()) : 0;
            cursorId = ReplyCursorIds.shows(cursorIds, value) ? value : 0;
        }
        if (writeErrors >= 0) {
            int arrayEnd = element.open(writeErrors, 1);
            int first = writeErrors + 4;
            if (first < arrayEnd) {
                element.read(first, arrayEnd);
                if (element.type() == BsonTypes.DOCUMENT) {
                    read(src, element.value(), 2);
                    return;
                }
            }
        }
        if (writeConcernError >= 0) {
            read(src, writeConcernError, 1);
        }
    }

    /** The same for a reply whose bytes are not in a heap array, through the document API. */
    void scan(final BsonDocument reply, final byte cursorIds) {
        code = 0;
        codeName = null;
        cursorId = 0;
        if (cursorIds != ReplyCursorIds.NEVER && reply.isDocument("cursor") && reply.getDocument("cursor").isInt64("id")) {
            long value = reply.getDocument("cursor").getInt64("id").getValue();
            cursorId = ReplyCursorIds.shows(cursorIds, value) ? value : 0;
        }
        BsonValue errors = reply.get("writeErrors");
        BsonDocument error = null;
        if (errors != null && errors.isArray() && !errors.asArray().isEmpty() && errors.asArray().get(0).isDocument()) {
            error = errors.asArray().get(0).asDocument();
        } else if (reply.isDocument("writeConcernError")) {
            error = reply.getDocument("writeConcernError");
        }
        if (error != null) {
            code = error.isInt32("code") ? error.getInt32("code").getValue() : -1;
            codeName = error.isString("codeName") ? error.getString("codeName").getValue() : null;
        }
    }

    /** Reads {@code code} and {@code codeName} from the error document at {@code document}, {@code depth} levels down. */
    private void read(final byte[] src, final int document, final int depth) {
        BsonCursor element = cursor;
        code = find(document, depth, CODE, BsonTypes.INT32) ? Bytes.readInt(src, element.value()) : -1;
        if (find(document, depth, CODE_NAME, BsonTypes.STRING)) {
            codeName = new String(src, element.value() + 4, element.stringValueLength(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Reads the top level of the document at {@code off}, {@code depth} levels down, its frame opened by the cursor, up to
     * the field {@code key} of the given type.
     *
     * @return whether it has one: the cursor has then read it
     */
    private boolean find(final int off, final int depth, final byte[] key, final byte type) {
        BsonCursor element = cursor;
        int documentEnd = element.open(off, depth);
        for (int p = off + 4; p < documentEnd; p = element.valueEnd()) {
            element.read(p, documentEnd);
            if (element.type() == type && element.keyIs(key)) {
                return true;
            }
        }
        return false;
    }
}

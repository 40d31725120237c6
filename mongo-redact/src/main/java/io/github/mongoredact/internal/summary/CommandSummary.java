package io.github.mongoredact.internal.summary;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonValidation;
import io.github.mongoredact.internal.bson.Bytes;
import io.github.mongoredact.internal.bson.DocumentBytes;
import io.github.mongoredact.internal.bson.Workspace;
import io.github.mongoredact.internal.rules.CollectionField;
import io.github.mongoredact.internal.rules.CollectionNames;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import io.github.mongoredact.internal.rules.TopLevelRules;
import io.github.mongoredact.internal.walk.BsonCursor;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * What a started command tells when no downstream reads its documents nor its fingerprint (metrics alone): the collection it
 * names and its size, read from its top level only, without the walk of the analysis; and, with or without a copy, the
 * cursor id of a {@code getMore}.
 *
 * <ul>
 *     <li>The collection is the one the analysis finds: the string value of the first field where the rules keep that field
 *     (the commands whose first field names a collection), else the string value of a top-level {@code collection} field where
 *     the rules keep it (getMore). A byte-backed top level is read in place, hopping over the values it does not read; a plain
 *     one by its entries.</li>
 *     <li>The size is the command's as the driver sent it, document sequences counted as arrays: a byte-backed document's
 *     length, or the plain top level's encoded size, whose sequences the driver's buffers size in O(1)
 *     ({@link io.github.mongoredact.internal.bson.PlainEncoder#sizeAsSent}).</li>
 * </ul>
 *
 * <p>Thread-safe; one instance per listener (it remembers which first fields its policy keeps). It uses the caller's
 * {@link Workspace} and cursor, borrowed for the callback, and releases them before returning, so that nothing keeps the
 * driver's bytes.</p>
 */
public final class CommandSummary {
    private static final String GET_MORE = "getMore";
    private final TopLevelRules topLevelRules;
    /** Whether the policy's copy of a getMore shows its cursor id ({@link TopLevelRules#showsGetMoreCursorId}). */
    private final boolean getMoreCursorIds;

    /** @param policy the listener's policy, whose rules say whether a command's first field is kept */
    public CommandSummary(final CompiledPolicy policy) {
        this.topLevelRules = new TopLevelRules(policy);
        this.getMoreCursorIds = TopLevelRules.showsGetMoreCursorId(policy);
    }

    /**
     * @param counted whether the size is read (a sink asks for it): only then is a plain top level counted, by the
     *                workspace's encoder; a byte-backed command's length costs nothing and is always given
     * @return the command's size as the driver sent it ({@link io.github.mongoredact.internal.bson.PlainEncoder#sizeAsSent}),
     *         0 for a plain top level not counted
     */
    public int sizeAsSent(final BsonDocument command, final Workspace workspace, final boolean counted) {
        return counted || DocumentBytes.isByteBacked(command) ? workspace.encoder.sizeAsSent(command) : 0;
    }

    /**
     * The cursor id of a {@code getMore}, its first field's {@code int64}, read from the driver's command without a copy
     * (one element); 0 for every other command and where the policy's copy would not show it. Read last, after the copy: a
     * copy that failed leaves it 0, as the copy then shows no id.
     */
    public long getMoreCursorId(final BsonDocument command, final String commandName) {
        if (!getMoreCursorIds || !GET_MORE.equals(commandName)) {
            return 0;
        }
        BsonValue id = command.get(commandName);
        return id != null && id.isInt64() ? id.asInt64().getValue() : 0;
    }

    /**
     * @param commandName the command's name, which picks its rules (whether they keep its first field)
     * @param workspace the caller's workspace, released before returning
     * @param cursor the caller's reader of a top level, cleared before returning
     * @return the collection the command names, or null
     * @throws io.github.mongoredact.internal.bson.BsonFormatException if the top level or the name can not be read
     */
    @Nullable
    public String collection(final BsonDocument command, final String commandName, final Workspace workspace,
                             final BsonCursor cursor) {
        try {
            if (!DocumentBytes.isByteBacked(command)) {
                return plainCollection(command, commandName, workspace);
            }
            if (!DocumentBytes.view(command, workspace)) {
                // not a heap array (a direct buffer): one copy into the scratch, then read the same way
                byte[] scratch = workspace.scratch(DocumentBytes.length(command));
                workspace.source(scratch, 0, DocumentBytes.copy(command, scratch, 0));
            }
            return collection(cursor, workspace.source(), workspace.sourceOff(), workspace.sourceEnd(), commandName);
        } finally {
            cursor.clear();
            workspace.release();
        }
    }

    /** The top level at {@code src[off, end)}: its first field, or its {@code collection} field, where the rules keep it. */
    @Nullable
    private String collection(final BsonCursor element, final byte[] src, final int off, final int end,
                              final String commandName) {
        element.bind(src, end, false);
        int documentEnd = element.open(off, 0);
        boolean first = true;
        for (int p = off + 4; p < documentEnd; p = element.valueEnd()) {
            element.read(p, documentEnd);
            int keyLength = element.keyLength();
            if (CollectionField.mayName(first, element.type(), src, element.key(), keyLength)
                    && topLevelRules.keeps(commandName, src, element.key(), keyLength)) {
                BsonValidation.checkKept(src, element.type(), element.value(), element.valueEnd());
                return CollectionNames.shared().resolve(src, element.value() + 4, element.stringValueLength());
            }
            first = false;
        }
        return null;
    }

    /**
     * The same for a plain top level, by its entries: a key that may name the collection is matched on its UTF-8 bytes,
     * written into the workspace's scratch.
     */
    @Nullable
    private String plainCollection(final BsonDocument command, final String commandName, final Workspace workspace) {
        boolean first = true;
        for (Map.Entry<String, BsonValue> entry : command.entrySet()) {
            BsonValue value = entry.getValue();
            if (value instanceof BsonString) {
                String key = entry.getKey();
                if (CollectionField.mayName(first, key)) {
                    byte[] scratch = workspace.scratch(3 * key.length());
                    if (topLevelRules.keeps(commandName, scratch, 0, Bytes.writeKey(key, scratch, 0))) {
                        return name(((BsonString) value).getValue());
                    }
                }
            }
            first = false;
        }
        return null;
    }

    /**
     * The name as the analysis gives it: a plain ASCII name is the string itself; anything else goes through its UTF-8 bytes,
     * checked as a kept string is and resolved as the walker resolves it.
     */
    private static String name(final String value) {
        int length = value.length();
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c == 0 || c >= 0x80) {
                byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
                BsonValidation.checkString(utf8, 0, utf8.length);
                return CollectionNames.shared().resolve(utf8, 0, utf8.length);
            }
        }
        return value;
    }
}

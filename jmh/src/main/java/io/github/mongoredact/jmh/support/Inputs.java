package io.github.mongoredact.jmh.support;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ConnectionDescription;
import com.mongodb.connection.ServerId;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.ObjectId;

import java.util.ArrayList;
import java.util.List;

/**
 * The inputs of the benchmarks: user documents of two sizes, insert commands in the two shapes the driver hands to a listener,
 * and {@code find} replies, all deterministic.
 */
public final class Inputs {
    /** The database every command names. */
    public static final String DATABASE = "shop";
    /** The collection every command names. */
    public static final String COLLECTION = "customers";
    /** The size in bytes of {@link DocSize#KIB} documents. */
    public static final int KIB_DOCUMENT_BYTES = 1024;

    /** The size of the user documents. */
    public enum DocSize {
        /** About 60 bytes: an id, a name, an age, a flag. */
        SMALL,
        /** 1 KiB: nested address, tags, scores, order lines and a free-text note. */
        KIB
    }

    /** The shape of the top-level command document the listener gets. */
    public enum Shape {
        /** The whole command, documents included as an array, is one {@code ByteBufBsonDocument} (as for find, aggregate). */
        BYTEBUF,
        /** A plain {@code BsonDocument} with the documents appended after {@code $db} as a {@code BsonArray} of
         * {@code ByteBufBsonDocument}s: what the driver hands over for insert, update and delete. */
        PLAIN
    }

    private static final ConnectionDescription CONNECTION =
            new ConnectionDescription(new ServerId(new ClusterId("benchmark"), new ServerAddress("127.0.0.1", 27017)));

    private Inputs() {
    }

    /** @return the connection description of every synthetic event */
    public static ConnectionDescription connection() {
        return CONNECTION;
    }

    /**
     * @param size the size
     * @param i the index, which varies the values
     * @return a user document
     */
    public static BsonDocument document(final DocSize size, final int i) {
        return size == DocSize.SMALL ? small(i) : kib(i);
    }

    /** About 60 bytes. */
    static BsonDocument small(final int i) {
        return new BsonDocument("_id", new BsonObjectId(objectId(i)))
                .append("name", new BsonString(String.format("Customer %05d", i)))
                .append("age", new BsonInt32(20 + i % 60))
                .append("active", BsonBoolean.valueOf(i % 3 != 0));
    }

    /** Exactly {@link #KIB_DOCUMENT_BYTES} bytes. */
    static BsonDocument kib(final int i) {
        BsonArray tags = new BsonArray();
        for (int t = 0; t < 8; t++) {
            tags.add(new BsonString("tag-" + ((i + t) % 50)));
        }
        BsonArray scores = new BsonArray();
        for (int s = 0; s < 10; s++) {
            scores.add(new BsonDouble((i * 31 + s * 7) % 1000 / 10.0));
        }
        BsonArray orders = new BsonArray();
        for (int o = 0; o < 3; o++) {
            orders.add(new BsonDocument("sku", new BsonString(String.format("SKU-%06d", i * 3 + o)))
                    .append("quantity", new BsonInt32(1 + (i + o) % 9))
                    .append("price", new BsonDouble(9.99 + o))
                    .append("shippedAt", new BsonDateTime(1_700_000_000_000L + i * 1000L + o)));
        }
        BsonDocument document = new BsonDocument("_id", new BsonObjectId(objectId(i)))
                .append("name", new BsonString(String.format("Customer %05d", i)))
                .append("email", new BsonString(String.format("customer%05d@example.com", i)))
                .append("phone", new BsonString(String.format("+1-555-%07d", i)))
                .append("address", new BsonDocument("street", new BsonString(i + " Main Street"))
                        .append("city", new BsonString("Springfield"))
                        .append("zip", new BsonString(String.format("%05d", 10000 + i % 89999)))
                        .append("country", new BsonString("US")))
                .append("tags", tags)
                .append("scores", scores)
                .append("orders", orders)
                .append("balance", new BsonInt64(100_000L + i))
                .append("createdAt", new BsonDateTime(1_600_000_000_000L + i * 60_000L))
                .append("notes", new BsonString(""));
        int missing = KIB_DOCUMENT_BYTES - DriverDocuments.bytesOf(document).length;
        if (missing < 0) {
            throw new IllegalStateException("document over " + KIB_DOCUMENT_BYTES + " bytes: missing=" + missing);
        }
        StringBuilder notes = new StringBuilder(missing);
        String words = "Prefers email contact; called about order on file; asked to update the delivery address. ";
        while (notes.length() < missing) {
            notes.append(words.charAt(notes.length() % words.length()));
        }
        document.put("notes", new BsonString(notes.toString()));
        return document;
    }

    private static ObjectId objectId(final int i) {
        return new ObjectId(1_700_000_000 + i, i & 0xFFFFFF);
    }

    /**
     * @param size the document size
     * @param count how many
     * @return {@code count} user documents
     */
    public static List<BsonDocument> documents(final DocSize size, final int count) {
        List<BsonDocument> documents = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            documents.add(document(size, i));
        }
        return documents;
    }

    /** The command section of an insert, as the driver encodes it: ends with {@code $db}. */
    private static BsonDocument insertBody() {
        return new BsonDocument("insert", new BsonString(COLLECTION))
                .append("ordered", BsonBoolean.TRUE)
                .append("$db", new BsonString(DATABASE));
    }

    /**
     * An insert command in the given shape. With {@code count == 0} there is no sequence: the byte-backed shape is the command
     * section alone and the plain shape its decoded top level.
     *
     * @param shape the shape
     * @param size the document size
     * @param count the number of documents
     * @return the command document
     */
    public static BsonDocument insert(final Shape shape, final DocSize size, final int count) {
        List<BsonDocument> documents = documents(size, count);
        if (shape == Shape.PLAIN) {
            return DriverDocuments.plainWithSequence(insertBody(), "documents", documents);
        }
        BsonDocument whole = insertBody();
        if (count > 0) {
            whole.append("documents", new BsonArray(new ArrayList<>(documents)));
        }
        return DriverDocuments.byteBacked(whole);
    }

    /**
     * A {@code find} reply as the driver hands it over: a heap {@link RawBsonDocument}.
     *
     * @param size the document size
     * @param batch the number of documents in {@code cursor.firstBatch}
     * @return the reply
     */
    public static RawBsonDocument findReply(final DocSize size, final int batch) {
        BsonDocument reply = new BsonDocument("cursor", new BsonDocument("firstBatch", new BsonArray(documents(size, batch)))
                .append("id", new BsonInt64(0))
                .append("ns", new BsonString(DATABASE + "." + COLLECTION)))
                .append("ok", new BsonDouble(1.0));
        return new RawBsonDocument(reply, new BsonDocumentCodec());
    }

    /**
     * @param n the number of documents inserted
     * @return the reply of an insert: {@code {n: n, ok: 1.0}} as a heap {@link RawBsonDocument}
     */
    public static RawBsonDocument insertReply(final int n) {
        return new RawBsonDocument(new BsonDocument("n", new BsonInt32(n)).append("ok", new BsonDouble(1.0)),
                new BsonDocumentCodec());
    }

    /**
     * @param commandName the command name
     * @param command the command
     * @return a started event on the benchmark connection
     */
    public static CommandStartedEvent started(final String commandName, final BsonDocument command) {
        return new CommandStartedEvent(null, 1L, 42, CONNECTION, DATABASE, commandName, command);
    }

    /**
     * @param commandName the command name
     * @param reply the reply
     * @return a succeeded event matching {@link #started(String, BsonDocument)}
     */
    public static CommandSucceededEvent succeeded(final String commandName, final BsonDocument reply) {
        return new CommandSucceededEvent(null, 1L, 42, CONNECTION, DATABASE, commandName, reply, 1_234_567L);
    }
}

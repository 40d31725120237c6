package io.github.mongoredact.internal.failure;

import com.mongodb.DuplicateKeyException;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import com.mongodb.WriteConcernException;
import com.mongodb.WriteConcernResult;
import com.mongodb.WriteError;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.bulk.BulkWriteInsert;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.bulk.BulkWriteUpsert;
import com.mongodb.bulk.WriteConcernError;
import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Rebuilds the write failures of the driver: {@link MongoWriteException}, {@link MongoBulkWriteException},
 * {@link MongoWriteConcernException}, and the legacy {@link WriteConcernException} / {@link DuplicateKeyException}. Messages
 * and documents go through the {@link FailureContent}; codes, code names, indexes and counts stay.
 *
 * <p>Write results keep counts, not ids: an acknowledged {@link BulkWriteResult} keeps its counts and one upsert (and insert)
 * entry per original entry, at the same index, whose id is the content's placeholder ({@code "?objectId"} under the default
 * placeholders), so {@code getUpserts().size()} still counts the upserts; an unacknowledged result stays unacknowledged. A
 * {@link WriteConcernResult} keeps count and update-of-existing, with the upserted id, if any, replaced the same way.
 * Only constructors present on every driver line from 4.11 on are called. Stateless; failure path only.
 */
final class FailureWrites {
    /** 4.x only: {@code WriteConcernError(int, String, String, BsonDocument, Set)} and its labels; null on 5.x. */
    @Nullable
    private static final Constructor<WriteConcernError> LABELLED = labelledConstructor();
    @Nullable
    private static final Method LABELS = labelsGetter();

    private FailureWrites() {
    }

    @Nullable
    private static Constructor<WriteConcernError> labelledConstructor() {
        try {
            return WriteConcernError.class.getConstructor(int.class, String.class, String.class, BsonDocument.class,
                    Set.class);
        } catch (NoSuchMethodException | SecurityException e) {
            return null;
        }
    }

    @Nullable
    private static Method labelsGetter() {
        try {
            return WriteConcernError.class.getMethod("getErrorLabels");
        } catch (NoSuchMethodException | SecurityException e) {
            return null;
        }
    }

    /** @return the rebuilt write failure, or null when the failure is not exactly one of the write failure types */
    @Nullable
    static MongoException rebuild(final MongoException failure, final FailureContent content) {
        Class<?> type = failure.getClass();
        if (type == MongoWriteException.class) {
            MongoWriteException e = (MongoWriteException) failure;
            return new MongoWriteException(writeError(e.getError(), content), e.getServerAddress());
        }
        if (type == MongoBulkWriteException.class) {
            MongoBulkWriteException e = (MongoBulkWriteException) failure;
            List<BulkWriteError> errors = new ArrayList<>();
            for (BulkWriteError error : e.getWriteErrors()) {
                errors.add(new BulkWriteError(error.getCode(), FailureContent.text(content.serverText(error.getMessage())),
                        FailureContent.document(content.details(error.getDetails(), false)), error.getIndex()));
            }
            return new MongoBulkWriteException(Objects.requireNonNull(bulkResult(e.getWriteResult(), content)), errors,
                    concernError(e.getWriteConcernError(), content), e.getServerAddress(),
                    new HashSet<>(e.getErrorLabels()));
        }
        if (type == MongoWriteConcernException.class) {
            MongoWriteConcernException e = (MongoWriteConcernException) failure;
            return new MongoWriteConcernException(Objects.requireNonNull(concernError(e.getWriteConcernError(), content)),
                    concernResult(e.getWriteResult(), content), e.getServerAddress());
        }
        if (type == WriteConcernException.class || type == DuplicateKeyException.class) {
            WriteConcernException e = (WriteConcernException) failure;
            WriteConcernResult result = Objects.requireNonNull(concernResult(e.getWriteConcernResult(), content));
            BsonDocument response = content.response(e.getResponse(), e.getErrorLabels());
            return type == WriteConcernException.class ? new WriteConcernException(response, e.getServerAddress(), result)
                    : new DuplicateKeyException(response, e.getServerAddress(), result);
        }
        return null;
    }

    private static WriteError writeError(final WriteError error, final FailureContent content) {
        return new WriteError(error.getCode(), FailureContent.text(content.serverText(error.getMessage())),
                FailureContent.document(content.details(error.getDetails(), false)));
    }

    @Nullable
    private static WriteConcernError concernError(@Nullable final WriteConcernError error, final FailureContent content) {
        if (error == null) {
            return null;
        }
        String message = FailureContent.text(content.serverText(error.getMessage()));
        BsonDocument details = FailureContent.document(content.details(error.getDetails(), true));
        if (LABELLED != null && LABELS != null) {
            // 4.x: the error holds labels in a set that must be mutable, MongoWriteConcernException.addLabel adds to it
            try {
                Set<String> labels = new HashSet<>();
                for (Object label : (Iterable<?>) LABELS.invoke(error)) {
                    labels.add(String.valueOf(label));
                }
                return LABELLED.newInstance(error.getCode(), error.getCodeName(), message, details, labels);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // fall through to the constructor every line has
            }
        }
        return new WriteConcernError(error.getCode(), error.getCodeName(), message, details);
    }

    /** @return the result with its counts and with every inserted and upserted id replaced by the placeholder */
    @Nullable
    static BulkWriteResult bulkResult(@Nullable final BulkWriteResult result, final FailureContent content) {
        if (result == null || !result.wasAcknowledged()) {
            return result == null ? null : BulkWriteResult.unacknowledged();
        }
        List<BulkWriteUpsert> upserts = new ArrayList<>();
        for (BulkWriteUpsert upsert : result.getUpserts()) {
            upserts.add(new BulkWriteUpsert(upsert.getIndex(), content.placeholder(upsert.getId())));
        }
        List<BulkWriteInsert> inserts = new ArrayList<>();
        for (BulkWriteInsert insert : result.getInserts()) {
            inserts.add(new BulkWriteInsert(insert.getIndex(), content.placeholder(insert.getId())));
        }
        return BulkWriteResult.acknowledged(result.getInsertedCount(), result.getMatchedCount(), result.getDeletedCount(),
                result.getModifiedCount(), Collections.unmodifiableList(upserts), Collections.unmodifiableList(inserts));
    }

    /** @return the result with its count and with the upserted id, if any, replaced by the placeholder */
    @Nullable
    static WriteConcernResult concernResult(@Nullable final WriteConcernResult result, final FailureContent content) {
        if (result == null || !result.wasAcknowledged()) {
            return result == null ? null : WriteConcernResult.unacknowledged();
        }
        BsonValue upsertedId = result.getUpsertedId();
        return WriteConcernResult.acknowledged(result.getCount(), result.isUpdateOfExisting(),
                upsertedId == null ? null : content.placeholder(upsertedId));
    }
}

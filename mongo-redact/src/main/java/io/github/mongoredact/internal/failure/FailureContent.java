package io.github.mongoredact.internal.failure;

import com.mongodb.lang.Nullable;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.Set;

/**
 * What a rebuilt failure may carry of the original's texts and documents: the one place that differs between the policy's
 * redaction ({@link FailureRedactor}) and the spec's redaction of sensitive commands ({@link
 * io.github.mongoredact.internal.rules.SpecRedaction}). The structure (type, code, code name, labels, cursor id, server
 * address, counts, stack) is kept by {@link FailureRebuilder} for both. Implementations are stateless or thread-confined; they
 * run on the failure path only and may allocate.
 */
interface FailureContent {
    /**
     * @param labels the failure's error labels, those of the response and those the driver added later
     * @return what stays of a command's reply inside a failure ({@code MongoCommandException.getResponse()})
     */
    BsonDocument response(BsonDocument response, Set<String> labels);

    /**
     * @param writeConcern whether the document is a write concern error's details (else a write error's)
     * @return what stays of a write error's or write concern error's details (the server's {@code errInfo})
     */
    @Nullable
    BsonDocument details(@Nullable BsonDocument details, boolean writeConcern);

    /** @return what stays of a text the server wrote (an {@code errmsg}) */
    @Nullable
    String serverText(@Nullable String text);

    /**
     * @return what stays of a text one of the driver's own client-side exceptions wrote, whose templates are known (it may
     * quote values too); the texts of every other throwable are withheld by {@link FailureRebuilder}
     */
    @Nullable
    String clientText(@Nullable String text);

    /** @return the value that stands for an id of an inserted or upserted document in a write result */
    BsonValue placeholder(BsonValue id);

    /** @return the text, or the empty text where a driver type takes no null */
    static String text(@Nullable final String text) {
        return text == null ? "" : text;
    }

    /** @return the document, or an empty one where a driver type takes no null */
    static BsonDocument document(@Nullable final BsonDocument document) {
        return document == null ? new BsonDocument() : document;
    }
}

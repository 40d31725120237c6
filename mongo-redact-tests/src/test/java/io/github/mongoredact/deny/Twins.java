package io.github.mongoredact.deny;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.bson.BsonValue;

import java.util.Map;

/**
 * The twin of a command: the same shape, every planted value replaced by a new planted value of the same type and the marker
 * of every planted key by a new one (so a key keeps its form: an e-mail address stays one). A twin's fingerprint must be its
 * command's: the fingerprint takes no value.
 */
final class Twins {
    private final Planted planted;

    Twins(final Planted planted) {
        this.planted = planted;
    }

    BsonDocument of(final BsonDocument document) {
        BsonDocument twin = new BsonDocument();
        for (Map.Entry<String, BsonValue> entry : document.entrySet()) {
            String key = entry.getKey().contains(Planted.PREFIX) ? planted.remark(entry.getKey()) : entry.getKey();
            twin.put(key, value(entry.getValue()));
        }
        return twin;
    }

    private BsonValue value(final BsonValue value) {
        if (value.isDocument()) {
            return of(value.asDocument());
        }
        if (value.isArray()) {
            BsonArray twin = new BsonArray();
            for (BsonValue element : value.asArray()) {
                twin.add(value(element));
            }
            return twin;
        }
        if (planted.identify(value) == null) {
            return value;
        }
        BsonType type = value.getBsonType();
        switch (type) {
            case STRING: return planted.string();
            case INT32: return planted.int32();
            case INT64: return planted.int64();
            case DOUBLE: return planted.dbl();
            case OBJECT_ID: return planted.objectId();
            case BINARY: return value.asBinary().getType() == 0 ? planted.binary() : value;
            case DATE_TIME: return planted.date();
            case REGULAR_EXPRESSION: return planted.regex();
            case JAVASCRIPT: return planted.code();
            case JAVASCRIPT_WITH_SCOPE: return planted.codeWithScope();
            default: return value;
        }
    }
}

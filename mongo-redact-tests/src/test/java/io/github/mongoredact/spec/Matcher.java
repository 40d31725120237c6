package io.github.mongoredact.spec;

import com.mongodb.lang.Nullable;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonType;
import org.bson.BsonValue;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The unified test format's matching of an expected value against an actual one: root documents allow extra fields, embedded
 * ones do not (unless {@code $$matchAsRoot}); numbers of different BSON types match when numerically equal; the operators
 * {@code $$exists}, {@code $$type}, {@code $$unsetOrMatches}, {@code $$matchesHexBytes}, {@code $$matchAsDocument} and
 * {@code $$matchAsRoot}. Differences are added to a list, each with its path.
 */
final class Matcher {
    private Matcher() {
    }

    /** Matches a root-level document (extra actual fields allowed). */
    static void matchRoot(final BsonDocument expected, @Nullable final BsonValue actual, final String path,
                          final List<Mismatch> out) {
        matchValue(expected, actual, path, true, out);
    }

    static void matchValue(final BsonValue expected, @Nullable final BsonValue actual, final String path, final boolean root,
                           final List<Mismatch> out) {
        if (expected.isDocument() && isOperator(expected.asDocument())) {
            matchOperator(expected.asDocument(), actual, path, out);
            return;
        }
        if (actual == null) {
            out.add(Mismatch.other(path + ": expected " + expected.toString() + " but it is absent"));
            return;
        }
        if (expected.isDocument()) {
            if (!actual.isDocument()) {
                out.add(Mismatch.other(path + ": expected a document " + expected + " but got " + actual));
                return;
            }
            matchDocument(expected.asDocument(), actual.asDocument(), path, root, out);
        } else if (expected.isArray()) {
            matchArray(expected.asArray(), actual, path, out);
        } else if (expected.isNumber() && actual.isNumber()) {
            if (Double.compare(number(expected), number(actual)) != 0) {
                out.add(Mismatch.other(path + ": expected " + expected + " but got " + actual));
            }
        } else if (!expected.equals(actual)) {
            out.add(Mismatch.other(path + ": expected " + expected + " but got " + actual));
        }
    }

    private static void matchDocument(final BsonDocument expected, final BsonDocument actual, final String path,
                                      final boolean root, final List<Mismatch> out) {
        for (Map.Entry<String, BsonValue> entry : expected.entrySet()) {
            BsonValue value = entry.getValue();
            String child = path + "." + entry.getKey();
            BsonValue actualValue = actual.get(entry.getKey());
            matchValue(value, actualValue, child, false, out);
        }
        if (!root) {
            for (String key : actual.keySet()) {
                if (!expected.containsKey(key)) {
                    out.add(Mismatch.other(path + ": unexpected field " + key + " in " + actual.toJson()));
                }
            }
        }
    }

    private static void matchArray(final BsonArray expected, final BsonValue actual, final String path,
                                   final List<Mismatch> out) {
        if (!actual.isArray()) {
            out.add(Mismatch.other(path + ": expected an array " + expected + " but got " + actual));
            return;
        }
        BsonArray array = actual.asArray();
        if (array.size() != expected.size()) {
            out.add(Mismatch.other(path + ": expected " + expected.size() + " elements " + expected + " but got " + array));
            return;
        }
        for (int i = 0; i < expected.size(); i++) {
            matchValue(expected.get(i), array.get(i), path + "[" + i + "]", false, out);
        }
    }

    private static boolean isOperator(final BsonDocument document) {
        return document.size() == 1 && document.getFirstKey().startsWith("$$");
    }

    private static void matchOperator(final BsonDocument expected, @Nullable final BsonValue actual, final String path,
                                      final List<Mismatch> out) {
        String operator = expected.getFirstKey();
        BsonValue argument = expected.get(operator);
        switch (operator) {
            case "$$exists":
                if (argument.asBoolean().getValue() != (actual != null)) {
                    out.add(Mismatch.other(path + ": expected " + (argument.asBoolean().getValue() ? "present" : "absent")
                            + " but got " + actual));
                }
                break;
            case "$$unsetOrMatches":
                if (actual != null) {
                    matchValue(argument, actual, path, false, out);
                }
                break;
            case "$$type":
                matchType(argument, actual, path, out);
                break;
            case "$$matchesHexBytes":
                if (actual == null || !actual.isBinary()
                        || !toHex(actual.asBinary().getData()).equalsIgnoreCase(argument.asString().getValue())) {
                    out.add(Mismatch.other(path + ": expected bytes " + argument + " but got " + actual));
                }
                break;
            case "$$matchAsRoot":
                matchValue(argument, actual, path, true, out);
                break;
            case "$$matchAsDocument":
                matchAsDocument(argument, actual, path, out);
                break;
            default:
                out.add(Mismatch.other(path + ": the runner does not support the operator " + operator));
        }
    }

    private static void matchAsDocument(final BsonValue expected, @Nullable final BsonValue actual, final String path,
                                        final List<Mismatch> out) {
        if (actual == null || !actual.isString()) {
            out.add(Mismatch.other(path + ": expected a JSON string matching " + expected + " but got " + actual));
            return;
        }
        BsonDocument parsed;
        try {
            parsed = BsonDocument.parse(actual.asString().getValue());
        } catch (RuntimeException e) {
            out.add(Mismatch.other(path + ": not a JSON document: " + actual.asString().getValue() + " (" + e + ")"));
            return;
        }
        matchValue(expected, parsed, path, false, out);
    }

    private static void matchType(final BsonValue types, @Nullable final BsonValue actual, final String path,
                                  final List<Mismatch> out) {
        if (actual != null) {
            String name = typeName(actual.getBsonType());
            if (types.isArray()) {
                for (BsonValue type : types.asArray()) {
                    if (type.asString().getValue().equals(name)) {
                        return;
                    }
                }
            } else if (types.asString().getValue().equals(name)) {
                return;
            }
        }
        out.add(Mismatch.other(path + ": expected $$type " + types + " but got " + actual));
    }

    /** The unified format's (and the server's {@code $type}) name of a BSON type. */
    static String typeName(final BsonType type) {
        switch (type) {
            case DOUBLE: return "double";
            case STRING: return "string";
            case DOCUMENT: return "object";
            case ARRAY: return "array";
            case BINARY: return "binData";
            case OBJECT_ID: return "objectId";
            case BOOLEAN: return "bool";
            case DATE_TIME: return "date";
            case NULL: return "null";
            case REGULAR_EXPRESSION: return "regex";
            case INT32: return "int";
            case TIMESTAMP: return "timestamp";
            case INT64: return "long";
            case DECIMAL128: return "decimal";
            default: return type.name().toLowerCase(Locale.ROOT);
        }
    }

    private static double number(final BsonValue value) {
        return value.isDecimal128() ? value.asDecimal128().doubleValue() : value.asNumber().doubleValue();
    }

    private static String toHex(final byte[] bytes) {
        StringBuilder hex = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return hex.toString();
    }
}

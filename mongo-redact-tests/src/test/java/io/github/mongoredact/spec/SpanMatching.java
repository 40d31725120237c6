package io.github.mongoredact.spec;

import com.mongodb.lang.Nullable;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Matches the command spans a client made with the spec test's command-span expectations, in order. Under
 * {@code specOnly()} the expectations are taken as written ({@link Matcher}); under {@code defaults()} the same, except that
 * in {@code db.query.text} every value position must be a placeholder, and every position the defaults keep as metadata
 * ({@link #METADATA}) its value.
 */
final class SpanMatching {
    /**
     * The positions of a command (array indices left out) whose values {@code RedactionPolicy.defaults()} keeps, as the README
     * documents them: the first field (collection name or flag) and these.
     */
    static final Set<String> METADATA = new HashSet<>(Arrays.asList("ordered", "txnNumber", "startTransaction", "autocommit",
            "errorsOnly", "limit", "key", "deletes.limit", "updates.multi", "updates.upsert", "ops.insert", "ops.update",
            "ops.delete", "ops.multi", "ops.upsert", "nsInfo.ns", "indexes.key.*"));

    /** What a match found: the value positions of the query texts matched as placeholders and as kept metadata. */
    int placeholders;
    int metadata;

    private final boolean parametrized;
    private final Map<String, String> sessions;

    /**
     * @param parametrized whether the text was made under {@code defaults()}
     * @param sessions session entity ids to their lsid, as the span carries it (for {@code $$sessionLsid})
     */
    SpanMatching(final boolean parametrized, final Map<String, String> sessions) {
        this.parametrized = parametrized;
        this.sessions = sessions;
    }

    void match(final TracingSpecCase.Expected expected, final List<SpanData> actual, final List<Mismatch> out) {
        String where = "client " + expected.client;
        if (!expected.ignoreExtraSpans && actual.size() != expected.commandSpans.size()) {
            out.add(Mismatch.other(where + ": expected " + expected.commandSpans.size() + " command spans, got "
                    + actual.size() + " " + names(actual)));
            return;
        }
        int next = 0;
        for (int i = 0; i < expected.commandSpans.size(); i++) {
            BsonDocument span = expected.commandSpans.get(i);
            String name = span.getString("name").getValue();
            while (next < actual.size() && expected.ignoreExtraSpans && !actual.get(next).getName().equals(name)) {
                next++;
            }
            if (next >= actual.size()) {
                out.add(Mismatch.other(where + ": no command span " + name + " at " + i + " in " + names(actual)));
                return;
            }
            SpanData data = actual.get(next++);
            String path = where + " span[" + i + "] " + name;
            if (!data.getName().equals(name)) {
                out.add(Mismatch.other(path + ": named " + data.getName()));
            }
            matchAttributes(span.getDocument("attributes"), attributes(data), path, out);
        }
    }

    /**
     * Matches the whole tree as written: each expected span, in order, with the next span of the same level (children by
     * start time), its attributes and its nested spans. For the driver's own tracing, whose attribute values are all strings,
     * a numeric string is read as a number (the one adaptation: the specification types those values as int64).
     */
    void matchTree(final BsonArray expected, final boolean ignoreExtraSpans, final List<SpanData> all, final String path,
                   final List<Mismatch> out) {
        Set<String> ids = new HashSet<>();
        all.forEach(span -> ids.add(span.getSpanId()));
        List<SpanData> roots = new ArrayList<>();
        for (SpanData span : all) {
            if (!ids.contains(span.getParentSpanId())) {
                roots.add(span);
            }
        }
        matchLevel(expected, ignoreExtraSpans, roots, all, path, out);
    }

    private void matchLevel(final BsonArray expected, final boolean ignoreExtraSpans, final List<SpanData> level,
                            final List<SpanData> all, final String path, final List<Mismatch> out) {
        List<SpanData> ordered = new ArrayList<>(level);
        ordered.sort(Comparator.comparingLong(SpanData::getStartEpochNanos));
        if (!ignoreExtraSpans && ordered.size() != expected.size()) {
            out.add(Mismatch.other(path + ": expected " + expected.size() + " spans, got " + names(ordered)));
            return;
        }
        int next = 0;
        for (int i = 0; i < expected.size(); i++) {
            BsonDocument span = expected.get(i).asDocument();
            String name = span.getString("name").getValue();
            while (next < ordered.size() && ignoreExtraSpans && !ordered.get(next).getName().equals(name)) {
                next++;
            }
            if (next >= ordered.size()) {
                out.add(Mismatch.other(path + ": no span " + name + " in " + names(ordered)));
                return;
            }
            SpanData data = ordered.get(next++);
            String at = path + "/" + name;
            if (!data.getName().equals(name)) {
                out.add(Mismatch.other(at + ": named " + data.getName()));
                continue;
            }
            matchAttributes(span.getDocument("attributes", new BsonDocument()), numbersRead(attributes(data)), at, out);
            List<SpanData> children = new ArrayList<>();
            for (SpanData candidate : all) {
                if (candidate.getParentSpanId().equals(data.getSpanId())) {
                    children.add(candidate);
                }
            }
            matchLevel(span.getArray("nested", new BsonArray()), ignoreExtraSpans, children, all, at, out);
        }
    }

    private static BsonDocument numbersRead(final BsonDocument attributes) {
        for (Map.Entry<String, BsonValue> entry : attributes.entrySet()) {
            BsonValue value = entry.getValue();
            if (value.isString() && value.asString().getValue().matches("-?[0-9]{1,18}")) {
                entry.setValue(new BsonInt64(Long.parseLong(value.asString().getValue())));
            }
        }
        return attributes;
    }

    private void matchAttributes(final BsonDocument expected, final BsonDocument actual, final String path,
                                 final List<Mismatch> out) {
        BsonDocument resolved = resolveSessions(expected);
        BsonValue text = resolved.get("db.query.text");
        if (parametrized && text != null && text.isDocument() && text.asDocument().containsKey("$$matchAsDocument")) {
            resolved.remove("db.query.text");
            BsonValue root = text.asDocument().get("$$matchAsDocument");
            BsonDocument command = root.isDocument() && root.asDocument().containsKey("$$matchAsRoot")
                    ? root.asDocument().getDocument("$$matchAsRoot") : root.asDocument();
            BsonValue actualText = actual.get("db.query.text");
            if (actualText == null || !actualText.isString()) {
                out.add(Mismatch.other(path + ".db.query.text: expected a text, got " + actualText));
            } else {
                BsonDocument parsed = BsonDocument.parse(actualText.asString().getValue());
                boolean first = true;
                for (Map.Entry<String, BsonValue> entry : command.entrySet()) {
                    parametrizedValue(entry.getValue(), parsed.get(entry.getKey()), entry.getKey(), first,
                            path + ".db.query.text." + entry.getKey(), out);
                    first = false;
                }
            }
        }
        Matcher.matchRoot(resolved, actual, path, out);
    }

    /** A value position under {@code defaults()}: a placeholder, or, at a metadata position, the expected value. */
    private void parametrizedValue(final BsonValue expected, @Nullable final BsonValue actual, final String position,
                                   final boolean first, final String path, final List<Mismatch> out) {
        if (expected.isDocument() && expected.asDocument().size() == 1 && expected.asDocument().getFirstKey().startsWith("$$")) {
            String operator = expected.asDocument().getFirstKey();
            if (operator.equals("$$unsetOrMatches")) {
                if (actual != null) {
                    parametrizedValue(expected.asDocument().get(operator), actual, position, first, path, out);
                }
                return;
            }
            out.add(Mismatch.other(path + ": the runner does not support " + operator + " in a parametrized text"));
            return;
        }
        boolean kept = first || METADATA.contains(position) || METADATA.contains(parentOf(position) + ".*");
        if (actual == null) {
            out.add(Mismatch.other(path + ": absent, expected " + (kept ? expected : "a placeholder")));
        } else if (isPlaceholder(actual)) {
            if (kept && !isPlaceholder(expected)) {
                out.add(Mismatch.other(path + ": metadata lost: " + actual + " instead of " + expected));
            } else {
                placeholders++;
            }
        } else if (expected.isDocument() && actual.isDocument()) {
            for (Map.Entry<String, BsonValue> entry : expected.asDocument().entrySet()) {
                parametrizedValue(entry.getValue(), actual.asDocument().get(entry.getKey()), position + "." + entry.getKey(),
                        false, path + "." + entry.getKey(), out);
            }
            for (String key : actual.asDocument().keySet()) {
                if (!expected.asDocument().containsKey(key)) {
                    out.add(Mismatch.other(path + ": unexpected field " + key));
                }
            }
        } else if (expected.isArray() && actual.isArray() && expected.asArray().size() == actual.asArray().size()) {
            for (int i = 0; i < expected.asArray().size(); i++) {
                parametrizedValue(expected.asArray().get(i), actual.asArray().get(i), position, false, path + "[" + i + "]",
                        out);
            }
        } else if (kept) {
            int before = out.size();
            Matcher.matchValue(expected, actual, path, false, out);
            if (out.size() == before) {
                metadata++;
            }
        } else {
            out.add(Mismatch.other(path + ": a value left as it is: " + actual + " (expected a placeholder)"));
        }
    }

    private static String parentOf(final String position) {
        int dot = position.lastIndexOf('.');
        return dot < 0 ? "" : position.substring(0, dot);
    }

    private static boolean isPlaceholder(final BsonValue value) {
        return value.isString() && value.asString().getValue().startsWith("?");
    }

    private BsonDocument resolveSessions(final BsonDocument expected) {
        BsonDocument copy = expected.clone();
        for (Map.Entry<String, BsonValue> entry : copy.entrySet()) {
            BsonValue value = entry.getValue();
            if (value.isDocument() && value.asDocument().containsKey("$$sessionLsid")) {
                String session = value.asDocument().getString("$$sessionLsid").getValue();
                entry.setValue(new BsonString(String.valueOf(sessions.get(session))));
            }
        }
        return copy;
    }

    /** The span's attributes as a document, with the span's types: strings, int64, booleans, doubles. */
    static BsonDocument attributes(final SpanData span) {
        BsonDocument document = new BsonDocument();
        for (Map.Entry<AttributeKey<?>, Object> entry : span.getAttributes().asMap().entrySet()) {
            Object value = entry.getValue();
            BsonValue bson = value instanceof Long ? new BsonInt64((Long) value) : value instanceof Boolean
                    ? BsonBoolean.valueOf((Boolean) value) : value instanceof Double ? new BsonDouble((Double) value)
                    : value instanceof List ? new BsonArray() : new BsonString(String.valueOf(value));
            document.append(entry.getKey().getKey(), bson);
        }
        return document;
    }

    private static String names(final List<SpanData> spans) {
        StringBuilder names = new StringBuilder("[");
        for (SpanData span : spans) {
            names.append(names.length() > 1 ? ", " : "").append(span.getName());
        }
        return names.append(']').toString();
    }
}

package io.github.mongoredact.spec;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;

/**
 * One test of the OpenTelemetry specification's unified-format files, with its command-span expectations taken out of their
 * operation spans: each span that has a {@code db.command.name} attribute, in the order the tree lists them.
 */
final class TracingSpecCase {
    static final String ROOT = "spec/open-telemetry";

    final String file;
    final BsonDocument fileDocument;
    final BsonDocument test;
    final String id;

    TracingSpecCase(final String file, final BsonDocument fileDocument, final BsonDocument test) {
        this.file = file;
        this.fileDocument = fileDocument;
        this.test = test;
        this.id = file + ": " + test.getString("description").getValue();
    }

    BsonArray createEntities() {
        return fileDocument.getArray("createEntities");
    }

    BsonArray initialData() {
        return fileDocument.getArray("initialData", new BsonArray());
    }

    BsonArray operations() {
        return test.getArray("operations");
    }

    /** The expected command spans of one client. */
    static final class Expected {
        final String client;
        final boolean ignoreExtraSpans;
        final List<BsonDocument> commandSpans;

        Expected(final String client, final boolean ignoreExtraSpans, final List<BsonDocument> commandSpans) {
            this.client = client;
            this.ignoreExtraSpans = ignoreExtraSpans;
            this.commandSpans = commandSpans;
        }
    }

    List<Expected> expected() {
        List<Expected> all = new ArrayList<>();
        for (BsonValue value : test.getArray("expectTracingMessages", new BsonArray())) {
            BsonDocument messages = value.asDocument();
            List<BsonDocument> spans = new ArrayList<>();
            collectCommandSpans(messages.getArray("spans"), spans);
            all.add(new Expected(messages.getString("client").getValue(),
                    messages.getBoolean("ignoreExtraSpans", org.bson.BsonBoolean.FALSE).getValue(), spans));
        }
        return all;
    }

    int commandSpanCount() {
        return expected().stream().mapToInt(e -> e.commandSpans.size()).sum();
    }

    private static void collectCommandSpans(final BsonArray spans, final List<BsonDocument> into) {
        for (BsonValue value : spans) {
            BsonDocument span = value.asDocument();
            if (span.getDocument("attributes", new BsonDocument()).containsKey("db.command.name")) {
                into.add(span);
            }
            collectCommandSpans(span.getArray("nested", new BsonArray()), into);
        }
    }

    /** @return whether an operation of the test (or of a withTransaction callback) has this name */
    boolean uses(final String operationName) {
        return uses(operations(), operationName);
    }

    private static boolean uses(final BsonArray operations, final String operationName) {
        for (BsonValue value : operations) {
            BsonDocument operation = value.asDocument();
            if (operation.getString("name").getValue().equals(operationName)) {
                return true;
            }
            BsonValue callback = operation.getDocument("arguments", new BsonDocument()).get("callback");
            if (callback != null && callback.isArray() && uses(callback.asArray(), operationName)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return id;
    }

    static List<TracingSpecCase> loadAll() {
        List<TracingSpecCase> cases = new ArrayList<>();
        for (String directory : new String[]{"operation", "transaction"}) {
            for (String name : SpecCase.jsonFiles(ROOT + "/" + directory)) {
                String file = directory + "/" + name;
                BsonDocument document = BsonDocument.parse(SpecCase.read(ROOT + "/" + file));
                for (BsonValue test : document.getArray("tests")) {
                    cases.add(new TracingSpecCase(file, document, test.asDocument()));
                }
            }
        }
        return cases;
    }
}

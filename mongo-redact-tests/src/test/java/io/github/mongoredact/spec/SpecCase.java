package io.github.mongoredact.spec;

import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** One test of a unified-format spec file, with its file's entities, initial data and run-on requirements. */
final class SpecCase {
    static final String ROOT = "spec/command-logging-and-monitoring";

    /** The file, relative to the spec directory: {@code monitoring/find.json}. */
    final String file;
    final BsonDocument fileDocument;
    final BsonDocument test;
    /** {@code file: description}, the id used in {@link KnownProductFaults}. */
    final String id;

    SpecCase(final String file, final BsonDocument fileDocument, final BsonDocument test) {
        this.file = file;
        this.fileDocument = fileDocument;
        this.test = test;
        this.id = file + ": " + test.getString("description").getValue();
    }

    BsonArray createEntities() {
        return fileDocument.getArray("createEntities", new BsonArray());
    }

    BsonArray initialData() {
        return fileDocument.getArray("initialData", new BsonArray());
    }

    BsonArray operations() {
        return test.getArray("operations");
    }

    BsonArray expectEvents() {
        return test.getArray("expectEvents", new BsonArray());
    }

    BsonArray expectLogMessages() {
        return test.getArray("expectLogMessages", new BsonArray());
    }

    /** @return the run-on requirement lists that must both hold: the file's and the test's (each: any one entry) */
    List<BsonArray> requirements() {
        List<BsonArray> all = new ArrayList<>();
        for (BsonDocument level : new BsonDocument[]{fileDocument, test}) {
            if (level.containsKey("runOnRequirements")) {
                all.add(level.getArray("runOnRequirements"));
            }
        }
        return all;
    }

    /** @return the first requirement entry found (test first), or an empty document: the environment a constructed run simulates */
    BsonDocument simulatedRequirement() {
        for (BsonDocument level : new BsonDocument[]{test, fileDocument}) {
            BsonArray requirements = level.getArray("runOnRequirements", new BsonArray());
            if (!requirements.isEmpty()) {
                return requirements.get(0).asDocument();
            }
        }
        return new BsonDocument();
    }

    @Override
    public String toString() {
        return id;
    }

    /** @return every test of every JSON file under the spec's {@code monitoring/} and {@code logging/} resources, sorted */
    static List<SpecCase> loadAll() {
        List<SpecCase> cases = new ArrayList<>();
        for (String directory : new String[]{"monitoring", "logging"}) {
            for (String name : jsonFiles(ROOT + "/" + directory)) {
                String file = directory + "/" + name;
                BsonDocument document = BsonDocument.parse(read(ROOT + "/" + file));
                for (BsonValue test : document.getArray("tests")) {
                    cases.add(new SpecCase(file, document, test.asDocument()));
                }
            }
        }
        return cases;
    }

    /** @return the names of the JSON files in a folder of the test resources, sorted */
    static List<String> jsonFiles(final String resourceDirectory) {
        URL url = SpecCase.class.getClassLoader().getResource(resourceDirectory);
        if (url == null) {
            throw new AssertionError("missing test resources " + resourceDirectory);
        }
        try (Stream<Path> files = Files.list(Paths.get(url.toURI()))) {
            return files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".json")).sorted()
                    .collect(Collectors.toList());
        } catch (IOException | URISyntaxException e) {
            throw new AssertionError("cannot list " + url, e);
        }
    }

    /** @return a test resource's text */
    static String read(final String resource) {
        try (InputStream in = SpecCase.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new AssertionError("missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError("cannot read " + resource, e);
        }
    }
}

package io.github.mongoredact.internal.mask;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Derives the corpus of real field names that {@code DataLikeKeysCorpusTest} measures the key masking against: every key of
 * every JSON test file under the given directories (the {@code source} tree of {@code mongodb/specifications}, and the test
 * resources of {@code mongodb/mongo-java-driver}), with how often it occurs. Only the derived list is kept in this
 * repository ({@code src/test/resources/field-names/test-suite-keys.tsv}); run it again on newer checkouts:
 *
 * <pre>
 * java -cp target/test-classes io.github.mongoredact.internal.policy.FieldNameCorpus out.tsv specifications/source \
 *     mongo-java-driver/mongodb-crypt/src/test
 * </pre>
 *
 * (the driver keeps the specifications' tests in a submodule: its own JSON test files are those of {@code mongodb-crypt}).
 * A key is a JSON string followed by {@code :}, in every {@code .json} file under the directories given.
 */
public final class FieldNameCorpus {
    private FieldNameCorpus() {
    }

    public static void main(final String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: FieldNameCorpus <out.tsv> <directory>...");
            System.exit(2);
        }
        Map<String, Integer> counts = new TreeMap<>();
        int files = 0;
        for (int i = 1; i < args.length; i++) {
            for (Path file : jsonFiles(Paths.get(args[i]))) {
                keys(new String(Files.readAllBytes(file), StandardCharsets.UTF_8), counts);
                files++;
            }
        }
        try (Writer out = Files.newBufferedWriter(Paths.get(args[0]), StandardCharsets.UTF_8)) {
            out.write("# every key of " + files + " JSON test files (mongodb/specifications source/, mongodb/mongo-java-driver"
                    + " test resources): key, tab, occurrences; keys written with JSON escapes\n");
            for (Map.Entry<String, Integer> entry : counts.entrySet()) {
                out.write(escape(entry.getKey()) + "\t" + entry.getValue() + "\n");
            }
        }
        System.out.println(files + " files, " + counts.size() + " distinct keys");
    }

    private static List<Path> jsonFiles(final Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(p -> p.toString().endsWith(".json") && Files.isRegularFile(p))
                    .sorted().forEach(files::add);
        }
        return files;
    }

    /** Adds every key of the JSON text: each string that a colon follows. */
    static void keys(final String json, final Map<String, Integer> counts) {
        int i = 0;
        int n = json.length();
        while (i < n) {
            char c = json.charAt(i);
            if (c != '"') {
                i++;
                continue;
            }
            StringBuilder value = new StringBuilder();
            i++;
            while (i < n && json.charAt(i) != '"') {
                char d = json.charAt(i);
                if (d == '\\' && i + 1 < n) {
                    char e = json.charAt(++i);
                    if (e == 'u' && i + 4 < n) {
                        value.append((char) Integer.parseInt(json.substring(i + 1, i + 5), 16));
                        i += 4;
                    } else {
                        value.append(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e);
                    }
                } else {
                    value.append(d);
                }
                i++;
            }
            i++;
            int j = i;
            while (j < n && Character.isWhitespace(json.charAt(j))) {
                j++;
            }
            if (j < n && json.charAt(j) == ':') {
                counts.merge(value.toString(), 1, Integer::sum);
            }
        }
    }

    /** The key with backslash, tab, newline and control characters written as JSON escapes, so that a line holds one key. */
    static String escape(final String key) {
        StringBuilder out = new StringBuilder();
        for (char c : key.toCharArray()) {
            if (c == '\\') {
                out.append("\\\\");
            } else if (c < 0x20 || c == 0x7F) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Reads back a key {@link #escape} wrote. */
    static String unescape(final String line) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                char e = line.charAt(++i);
                if (e == 'u') {
                    out.append((char) Integer.parseInt(line.substring(i + 1, i + 5), 16));
                    i += 4;
                } else {
                    out.append(e);
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}

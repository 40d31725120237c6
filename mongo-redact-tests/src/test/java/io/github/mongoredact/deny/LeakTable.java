package io.github.mongoredact.deny;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Writes the leaks found as a Markdown table: one row per family, path and value kind, with a count and one example. */
final class LeakTable {
    private LeakTable() {
    }

    /** One row per {@link KnownLeaks} entry: the families and value kinds it covers, how many leaks, one example. */
    private static void byEntry(final List<Leak> leaks, final StringBuilder out) {
        out.append("| known leak | families | value kinds | count | example |\n|---|---|---|---|---|\n");
        for (KnownLeaks.Entry entry : KnownLeaks.ENTRIES) {
            Set<String> families = new TreeSet<>();
            Set<String> kinds = new TreeSet<>();
            Leak example = null;
            int count = 0;
            for (Leak leak : leaks) {
                if (entry.matches(leak)) {
                    families.add(leak.family);
                    kinds.add(leak.kind);
                    example = example == null ? leak : example;
                    count++;
                }
            }
            out.append("| `").append(entry.pattern).append("` | ").append(String.join(", ", families)).append(" | ")
                    .append(String.join(", ", kinds)).append(" | ").append(count).append(" | ")
                    .append(example == null ? "" : cell(example.path + " = " + example.example)).append(" |\n");
        }
    }

    private static String cell(final String text) {
        return "`" + text.replace("|", "\\|").replace("`", "'").replace("\n", " ") + "`";
    }

    static void write(final Path file, final List<Leak> leaks) throws IOException {
        StringBuilder out = new StringBuilder();
        byEntry(leaks, out);
        out.append('\n');
        Map<String, List<Leak>> rows = new TreeMap<>();
        for (Leak leak : leaks) {
            rows.computeIfAbsent(leak.family + "\t" + leak.path + "\t" + leak.kind, k -> new ArrayList<>()).add(leak);
        }
        out.append("| family | path | value kind | count | example |\n|---|---|---|---|---|\n");
        for (Map.Entry<String, List<Leak>> row : rows.entrySet()) {
            Leak first = row.getValue().get(0);
            out.append("| ").append(first.family).append(" | `").append(first.path).append("` | ").append(first.kind)
                    .append(" | ").append(row.getValue().size()).append(" | ")
                    .append(cell(first.example)).append(" |\n");
        }
        Files.createDirectories(file.getParent());
        Files.write(file, out.toString().getBytes(StandardCharsets.UTF_8));
    }
}

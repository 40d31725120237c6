package io.github.mongoredact.deny;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Writes the leaks found as a Markdown table: one row per family, path and value kind, with a count and one example. */
final class LeakTable {
    private LeakTable() {
    }

    static void write(final Path file, final List<Leak> leaks) throws IOException {
        Map<String, List<Leak>> rows = new TreeMap<>();
        for (Leak leak : leaks) {
            rows.computeIfAbsent(leak.family + "\t" + leak.path + "\t" + leak.kind, k -> new ArrayList<>()).add(leak);
        }
        StringBuilder out = new StringBuilder();
        out.append("| family | path | value kind | count | example |\n|---|---|---|---|---|\n");
        for (Map.Entry<String, List<Leak>> row : rows.entrySet()) {
            Leak first = row.getValue().get(0);
            out.append("| ").append(first.family).append(" | `").append(first.path).append("` | ").append(first.kind)
                    .append(" | ").append(row.getValue().size()).append(" | `")
                    .append(first.example.replace("|", "\\|").replace("`", "'").replace("\n", " ")).append("` |\n");
        }
        Files.createDirectories(file.getParent());
        Files.write(file, out.toString().getBytes(StandardCharsets.UTF_8));
    }
}

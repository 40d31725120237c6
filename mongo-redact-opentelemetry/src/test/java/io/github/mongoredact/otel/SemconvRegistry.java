package io.github.mongoredact.otel;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The attributes and metrics the semantic conventions' registry files define, read from the copies in
 * {@code src/test/resources/semconv} by a small line parser of the two layouts they use: {@code groups[*]} with
 * {@code attributes[*].id} and {@code metric_name} (most files), and the weaver {@code definition/2} layout,
 * {@code attributes[*].key} at the top level ({@code server_registry.yaml}). It reads only what the check needs: each
 * attribute's type ({@code string}, {@code int}..., or {@code enum} for a type given by its members), stability and whether
 * it is deprecated; each metric's instrument, unit and stability.
 */
final class SemconvRegistry {
    /** An attribute the registry defines. */
    static final class Attribute {
        final String name;
        String type = "";
        String stability = "";
        boolean deprecated;
        String file;

        Attribute(final String name, final String file) {
            this.name = name;
            this.file = file;
        }
    }

    /** A metric the registry defines. */
    static final class Metric {
        final String name;
        String instrument = "";
        String unit = "";
        String stability = "";

        Metric(final String name) {
            this.name = name;
        }
    }

    final Map<String, Attribute> attributes = new LinkedHashMap<>();
    final Map<String, Metric> metrics = new LinkedHashMap<>();

    static SemconvRegistry load(final String... files) {
        SemconvRegistry registry = new SemconvRegistry();
        for (String file : files) {
            try (InputStream in = SemconvRegistry.class.getResourceAsStream("/semconv/" + file)) {
                if (in == null) {
                    throw new IllegalArgumentException("no such registry file: " + file);
                }
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                registry.parse(file, reader);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return registry;
    }

    private void parse(final String file, final BufferedReader reader) throws IOException {
        boolean keyed = false;
        Attribute attribute = null;
        Metric metric = null;
        int fieldIndent = -1;
        String line;
        while ((line = reader.readLine()) != null) {
            String content = line.trim();
            if (content.isEmpty() || content.startsWith("#")) {
                continue;
            }
            int indent = line.indexOf(content);
            if (indent == 0) {
                keyed = keyed || content.equals("file_format: definition/2");
                attribute = null;
                continue;
            }
            if (keyed && indent == 2 && content.startsWith("- key: ")) {
                attribute = define(value(content, "- key: "), file);
                fieldIndent = 4;
            } else if (!keyed && indent == 2 && content.startsWith("- id: ")) {
                attribute = null;
                metric = null;
            } else if (!keyed && indent == 4 && content.startsWith("metric_name: ")) {
                metric = new Metric(value(content, "metric_name: "));
                metrics.put(metric.name, metric);
            } else if (!keyed && indent == 4 && metric != null) {
                metricField(metric, content);
            } else if (!keyed && indent == 6 && content.startsWith("- id: ")) {
                attribute = define(value(content, "- id: "), file);
                fieldIndent = 8;
            } else if (!keyed && indent == 6 && content.startsWith("- ")) {
                attribute = null;
            } else if (attribute != null && indent == fieldIndent) {
                attributeField(attribute, content);
            }
        }
    }

    private Attribute define(final String name, final String file) {
        Attribute attribute = new Attribute(name, file);
        attributes.put(name, attribute);
        return attribute;
    }

    private static void metricField(final Metric metric, final String content) {
        if (content.startsWith("instrument: ")) {
            metric.instrument = value(content, "instrument: ");
        } else if (content.startsWith("unit: ")) {
            metric.unit = value(content, "unit: ");
        } else if (content.startsWith("stability: ")) {
            metric.stability = value(content, "stability: ");
        }
    }

    private static void attributeField(final Attribute attribute, final String content) {
        if (content.equals("type:")) {
            attribute.type = "enum";
        } else if (content.startsWith("type: ")) {
            attribute.type = value(content, "type: ");
        } else if (content.startsWith("stability: ")) {
            attribute.stability = value(content, "stability: ");
        } else if (content.startsWith("deprecated:")) {
            attribute.deprecated = true;
        }
    }

    private static String value(final String content, final String prefix) {
        String value = content.substring(prefix.length()).trim();
        if (value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '\'')
                && value.charAt(value.length() - 1) == value.charAt(0)) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }
}

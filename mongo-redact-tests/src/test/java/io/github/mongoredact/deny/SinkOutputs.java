package io.github.mongoredact.deny;

import io.github.mongoredact.log.KeyValueLines;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the log and metrics sinks write, searched for planted values as the forwarded events are: every key-value pair of every
 * log line (the query shape, MongoDB's {@code queryShapeHash} and our {@code fingerprint} among them) and every tag of every
 * meter (the {@code query.shape.hash} and {@code command.fingerprint} tags among them). Counts what was searched, so that a
 * check can tell that the derived outputs were there to search.
 */
final class SinkOutputs {
    /** The log lines that carried MongoDB's query shape, and the distinct shape hashes the meters were tagged with. */
    int shapedLines;
    final Set<String> hashTags = new TreeSet<>();
    final Set<String> fingerprintTags = new TreeSet<>();

    /** Searches every pair of every line, each under {@code log.<key>} in the line's family. */
    void scanLog(final LeakFinder finder, final KeyValueLines log) {
        for (KeyValueLines.Line line : log.lines()) {
            finder.text(line.label, "log#message", line.message);
            for (Map.Entry<String, Object> pair : line.fields.entrySet()) {
                finder.text(line.label, "log." + pair.getKey() + "#key", pair.getKey());
                finder.text(line.label, "log." + pair.getKey(), String.valueOf(pair.getValue()));
            }
            if (line.fields.containsKey("queryShape") && line.fields.containsKey("queryShapeHash")) {
                shapedLines++;
            }
        }
    }

    /** Searches every tag of every meter (its key and value) and every meter's name, under the family {@code meters}. */
    void scanMeters(final LeakFinder finder, final MeterRegistry registry) {
        for (Meter meter : registry.getMeters()) {
            finder.text("meters", "meter#name", meter.getId().getName());
            for (Tag tag : meter.getId().getTagsAsIterable()) {
                finder.text("meters", "tag." + tag.getKey() + "#key", tag.getKey());
                finder.text("meters", "tag." + tag.getKey(), tag.getValue());
                if (tag.getKey().equals(MicrometerCommandSink.QUERY_SHAPE_HASH_TAG)) {
                    hashTags.add(tag.getValue());
                } else if (tag.getKey().equals(MicrometerCommandSink.FINGERPRINT_TAG)) {
                    fingerprintTags.add(tag.getValue());
                }
            }
        }
    }
}

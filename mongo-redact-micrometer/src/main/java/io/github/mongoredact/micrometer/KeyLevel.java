package io.github.mongoredact.micrometer;

import com.mongodb.lang.Nullable;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One level of a {@link MicrometerCommandSink}'s nested meter maps: the tags so far, the next levels by a tag's value
 * (server, then database, collection, command name, then with the opt-in tags the fingerprint and the query shape hash), and
 * at the last level the meters. Thread-safe; a look-up of a level that exists allocates nothing.
 */
final class KeyLevel {
    final Tags tags;
    private final ConcurrentHashMap<String, KeyLevel> next = new ConcurrentHashMap<>();
    /** The levels of each fingerprint, where the fingerprint tag is on (a {@code long} key, not boxed). */
    final LongTable<KeyLevel> fingerprints = new LongTable<>();
    @Nullable
    private volatile CommandMeters meters;

    KeyLevel(final Tags tags) {
        this.tags = tags;
    }

    /** @return the level of the tag's value, made when absent */
    KeyLevel next(final String value, final String tagKey) {
        KeyLevel level = next.get(value);
        if (level == null) {
            level = next.computeIfAbsent(value, v -> new KeyLevel(tags.and(tagKey, v)));
        }
        return level;
    }

    /** @return the level of the tag's value, or null when it was not made yet */
    @Nullable
    KeyLevel existing(final String value) {
        return next.get(value);
    }

    /** @return the level of the tag's value, made when absent; each one made is counted in {@code made} */
    KeyLevel next(final String value, final String tagKey, final AtomicInteger made) {
        return next.computeIfAbsent(value, v -> {
            made.incrementAndGet();
            return new KeyLevel(tags.and(tagKey, v));
        });
    }

    /** @return the level of the fingerprint, made when absent; each one made is counted in {@code made} */
    KeyLevel fingerprint(final long fingerprint, final String hex, final String tagKey, final AtomicInteger made) {
        return fingerprints.computeIfAbsent(fingerprint, f -> {
            made.incrementAndGet();
            return new KeyLevel(tags.and(tagKey, hex));
        });
    }

    /** @return the meters of this level's tags, registered when first asked for */
    CommandMeters meters(final MeterRegistry registry) {
        CommandMeters result = meters;
        if (result == null) {
            synchronized (this) {
                result = meters;
                if (result == null) {
                    result = new CommandMeters(registry, tags);
                    meters = result;
                }
            }
        }
        return result;
    }
}

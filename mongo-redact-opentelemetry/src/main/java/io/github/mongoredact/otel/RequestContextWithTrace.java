package io.github.mongoredact.otel;

import com.mongodb.RequestContext;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The request context {@link TracingContextProvider} gives the reactive driver: the caller's OpenTelemetry
 * {@code Context} under the key {@code io.opentelemetry.context.Context.class}, and the entries of Reactor's context where
 * the subscriber had one. Thread-safe (the driver may read it on its own threads).
 */
final class RequestContextWithTrace implements RequestContext {
    private final ConcurrentHashMap<Object, Object> entries = new ConcurrentHashMap<>();

    @Override
    @SuppressWarnings("unchecked")
    public <T> T get(final Object key) {
        T value = (T) entries.get(key);
        if (value == null) {
            throw new java.util.NoSuchElementException("no value for the key " + key);
        }
        return value;
    }

    @Override
    public boolean hasKey(final Object key) {
        return entries.containsKey(key);
    }

    @Override
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    @Override
    public void put(final Object key, final Object value) {
        entries.put(key, value);
    }

    @Override
    public void delete(final Object key) {
        entries.remove(key);
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public Stream<Map.Entry<Object, Object>> stream() {
        return entries.entrySet().stream();
    }

    @Override
    public String toString() {
        return "RequestContextWithTrace{keys=" + entries.keySet() + "}";
    }
}

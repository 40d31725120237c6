package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.LongHistogramBuilder;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Gives a histogram builder the semantic conventions' explicit bucket boundaries as advice, where the OpenTelemetry API at run
 * time can take it. This library is compiled against API 1.31, which has no such method; the capability is detected, never
 * assumed:
 *
 * <ul>
 *   <li>{@link Path#STABLE_API}: API 1.32 and later, {@code setExplicitBucketBoundariesAdvice(List)} on
 *   {@code DoubleHistogramBuilder} and {@code LongHistogramBuilder} themselves (looked up once, when this class loads);</li>
 *   <li>{@link Path#INCUBATOR}: API 1.31 with {@code opentelemetry-extension-incubator} (the SDK 1.31 brings it at run time):
 *   the same method on a public interface the SDK's builder implements ({@code ExtendedDoubleHistogramBuilder});</li>
 *   <li>{@link Path#NONE}: neither (API 1.31 alone, or a builder of another implementation): the histogram has the SDK's
 *   default buckets unless a view sets them.</li>
 * </ul>
 *
 * <p>It never throws: a method that fails is taken as {@link Path#NONE}. Stateless beyond the looked-up methods; thread-safe.
 * </p>
 */
final class BucketAdvice {
    static final String METHOD = "setExplicitBucketBoundariesAdvice";
    @Nullable
    private static final Method STABLE_DOUBLE = publicMethod(DoubleHistogramBuilder.class);
    @Nullable
    private static final Method STABLE_LONG = publicMethod(LongHistogramBuilder.class);

    /** How the advice reached the builder. */
    enum Path {
        /** Through the API's own method (API 1.32+). */
        STABLE_API,
        /** Through the incubator's interface the builder implements (API 1.31 with the incubator). */
        INCUBATOR,
        /** Not at all: the SDK's default buckets, or a view's. */
        NONE
    }

    private BucketAdvice() {
    }

    static Path apply(final DoubleHistogramBuilder builder, final List<Double> boundaries) {
        return apply(builder, STABLE_DOUBLE, DoubleHistogramBuilder.class, boundaries);
    }

    static Path apply(final LongHistogramBuilder builder, final List<Long> boundaries) {
        return apply(builder, STABLE_LONG, LongHistogramBuilder.class, boundaries);
    }

    private static Path apply(final Object builder, @Nullable final Method stable, final Class<?> api, final List<?> boundaries) {
        try {
            if (stable != null) {
                stable.invoke(builder, boundaries);
                return Path.STABLE_API;
            }
            Method extended = extendedMethod(builder.getClass(), api);
            if (extended != null) {
                extended.invoke(builder, boundaries);
                return Path.INCUBATOR;
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return Path.NONE;
        }
        return Path.NONE;
    }

    /** @return the method on a public interface of the builder's class that extends the API's builder, or null */
    @Nullable
    private static Method extendedMethod(final Class<?> type, final Class<?> api) {
        Deque<Class<?>> pending = new ArrayDeque<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            pending.addAll(java.util.Arrays.asList(c.getInterfaces()));
        }
        while (!pending.isEmpty()) {
            Class<?> candidate = pending.poll();
            if (candidate != api && api.isAssignableFrom(candidate) && Modifier.isPublic(candidate.getModifiers())) {
                Method method = publicMethod(candidate);
                if (method != null) {
                    return method;
                }
            }
            pending.addAll(java.util.Arrays.asList(candidate.getInterfaces()));
        }
        return null;
    }

    @Nullable
    private static Method publicMethod(final Class<?> type) {
        try {
            return type.getMethod(METHOD, List.class);
        } catch (NoSuchMethodException | SecurityException e) {
            return null;
        }
    }
}

package io.github.mongoredact.jmh.report.legacy;

import java.util.Arrays;

/** The median of a few values (one per round) with their minimum and maximum. Immutable. */
final class Spread {
    final double median;
    final double min;
    final double max;
    /** The values counted: NaN values (a metric a round did not measure) are left out. */
    final int n;

    private Spread(final double median, final double min, final double max, final int n) {
        this.median = median;
        this.min = min;
        this.max = max;
        this.n = n;
    }

    /**
     * @param values the values; NaN ones are ignored
     * @return their median (the mean of the middle two for an even count), minimum and maximum; all NaN when none is a number
     */
    static Spread of(final double[] values) {
        double[] sorted = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
        int n = sorted.length;
        if (n == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new Spread(median, sorted[0], sorted[n - 1], n);
    }

    /** @return the spread as text, {@code median [min-max]}, each value formatted by {@code format} */
    String text(final java.util.function.DoubleFunction<String> format) {
        if (n == 0) {
            return "?";
        }
        return n == 1 || min == max ? format.apply(median)
                : format.apply(median) + " [" + format.apply(min) + "-" + format.apply(max) + "]";
    }
}

package io.github.mongoredact.jmh.report;

import org.apache.commons.statistics.descriptive.Median;

import java.util.Arrays;

/** The median of a few values (one per round, by Apache Commons Statistics) with their minimum and maximum. Immutable. */
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
        double[] numbers = Arrays.stream(values).filter(v -> !Double.isNaN(v)).toArray();
        if (numbers.length == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        return new Spread(Median.withDefaults().evaluate(numbers), Arrays.stream(numbers).min().getAsDouble(),
                Arrays.stream(numbers).max().getAsDouble(), numbers.length);
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

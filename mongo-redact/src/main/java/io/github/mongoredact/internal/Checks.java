package io.github.mongoredact.internal;

import com.mongodb.lang.Nullable;

/**
 * Argument checks that return their value.
 */
public final class Checks {
    private Checks() {
    }

    /**
     * @param name the argument's name
     * @param value the value
     * @param <T> the type
     * @return the value
     * @throws IllegalArgumentException if the value is null
     */
    public static <T> T notNull(final String name, @Nullable final T value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " can not be null");
        }
        return value;
    }

    /**
     * @param name the argument's name
     * @param value the value
     * @param min the smallest allowed value
     * @param max the largest allowed value
     * @return the value
     * @throws IllegalArgumentException if the value is out of range
     */
    public static int inRange(final String name, final int value, final int min, final int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }
}

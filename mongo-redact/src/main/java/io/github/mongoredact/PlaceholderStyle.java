package io.github.mongoredact;

/**
 * How a {@link RedactionPolicy} writes a redacted value.
 *
 * @since 0.1
 */
public enum PlaceholderStyle {
    /** A string naming the value's type, as MongoDB's query shapes do: {@code "?string"}, {@code "?number"}, {@code "?date"}. */
    TYPED,
    /** The string {@code "?"} for every value. */
    FIXED
}

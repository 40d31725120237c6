package io.github.mongoredact;

/**
 * What a {@link RedactionPolicy} does with a field.
 *
 * @since 0.1
 */
public enum FieldAction {
    /** The field and everything below it are written verbatim. */
    KEEP,
    /**
     * Keys and {@code $} operators are kept; every value below the field is replaced by a placeholder that names its type.
     */
    REDACT,
    /** Like {@link #REDACT}, and the keys of the field's document are replaced too (for user-named keys such as {@code let}). */
    REDACT_KEYS,
    /** The text is kept with the values it quotes replaced (for server messages such as {@code errmsg}). */
    SCRUB,
    /**
     * Numbers and booleans are kept (the inclusion flags of a projection); every other value is redacted as by
     * {@link #REDACT}.
     */
    KEEP_FLAGS,
    /** The field is left out. */
    DROP
}

package io.github.mongoredact;

/**
 * What a {@link RedactionPolicy} does with a field.
 *
 * @since 0.1
 */
public enum FieldAction {
    /** The field and everything below it are written verbatim (rules on paths below it still apply). */
    KEEP,
    /**
     * Keys and {@code $} operators are kept; every value below the field is replaced by a placeholder that names its type.
     */
    REDACT,
    /**
     * Like {@link #REDACT}, and every key below the field is replaced too, at every depth, by {@code ?0}, {@code ?1}...
     * (for user-named keys such as {@code let} variables, or keys that are data: {@code {"$set": {"prefs.alice@example.com":
     * true}}}; see {@link RedactionPolicyBuilder#maskKeys(String)}).
     */
    REDACT_KEYS,
    /** The text is kept with the values it quotes replaced (for server messages such as {@code errmsg}). */
    SCRUB,
    /**
     * Flags are kept: booleans, the numbers -1, 0 and 1 (inclusion flags of a projection, sort directions, index key
     * directions) and the index type names {@code "text"}, {@code "2d"}, {@code "2dsphere"}, {@code "geoHaystack"},
     * {@code "hashed"}; every other value is redacted as by {@link #REDACT}.
     */
    KEEP_FLAGS,
    /**
     * The field holds an aggregation pipeline: each element is a stage, walked with the rules whose path starts with
     * {@code @stage.} (for example {@code @stage.$limit}); whatever they do not name is redacted, so the literals of a pipeline
     * are user data whatever their keys say. A value that is not an array is redacted.
     *
     * @since 0.2
     */
    PIPELINE,
    /** The field is left out. */
    DROP
}

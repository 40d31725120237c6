package io.github.mongoredact;

/**
 * Which keys a {@link RedactionPolicy} replaces, where it redacts values: inserted documents, update documents, filters,
 * projections, sorts, pipeline literals, reply batches, {@code value} of {@code findAndModify} and change-stream events,
 * and every other place no rule keeps verbatim. Array element names ({@code "0"}, {@code "1"}...) are positions and are never
 * replaced; keys a rule names are kept. To mask every key below a path, whatever it looks like, use
 * {@link RedactionPolicyBuilder#maskKeys(String)}.
 *
 * @since 0.2
 */
public enum KeyMasking {
    /** Every key is kept as it is: a key that is itself data ({@code {"prefs.alice@example.com": true}}) leaves. */
    NONE,
    /**
     * Keys that have the form of data are replaced (the default of {@link RedactionPolicy#defaults()}): each segment of a
     * dotted key that holds whitespace, an e-mail address ({@code @} after its first character), a run of 4 or more digits
     * (ids, phone numbers, dates such as {@code 2026-12-01}), a run of 8 or more hexadecimal digits with a decimal digit
     * among them (ObjectIds, UUIDs, hashes), 3 or more groups of digits right after letters, or, from 12 characters on, the
     * mix of letters and digits of a random token, becomes {@code ?key}: {@code stats.2026-12-01.count} reads
     * {@code stats.?key.count}, {@code sessions.<token>} reads {@code sessions.?key}. A key that holds an e-mail address is
     * masked whole ({@code prefs.alice@example.com} reads {@code ?key}): an address has dots of its own
     * ({@code grace.hopper@navy.example}), which cannot be told from the path's. Operators and positionals ({@code $set},
     * {@code $log10}, {@code $[elem]}) stay; a {@code $} before data ({@code $4111111111111111}) does not keep it. Ordinary
     * schema names ({@code firstName}, {@code address.zip}, {@code items.0.qty}, {@code _id}) stay. The second masked key of
     * a document reads {@code ?key1}, the third {@code ?key2}..., so that its keys stay distinct. A key that is a plain word
     * ({@code alice}) does not have the form of data and stays.
     */
    DATA_LIKE
}

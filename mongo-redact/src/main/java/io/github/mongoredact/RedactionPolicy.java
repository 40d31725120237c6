package io.github.mongoredact;


import io.github.mongoredact.internal.failure.FailureRedactor;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import io.github.mongoredact.internal.rules.PlainRule;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * Decides what of a command, a reply and a failure may leave through a {@link RedactingCommandListener}.
 *
 * <p>Whatever the policy, the commands that the command logging and monitoring spec calls sensitive ({@code authenticate},
 * {@code saslStart}, {@code saslContinue}, {@code getnonce}, {@code createUser}, {@code updateUser}, {@code copydbgetnonce},
 * {@code copydbsaslstart}, {@code copydb}, and {@code hello} / {@code isMaster} / {@code ismaster} holding
 * {@code speculativeAuthenticate}) are always redacted to an empty document, and their failures keep only the code, code name
 * and error labels.</p>
 *
 * <ul>
 *     <li>{@link #specOnly()}: only the spec's redaction; everything else is kept verbatim.</li>
 *     <li>{@link #defaults()}: keeps the command name, the collection of the commands whose first field names one, {@code $db}
 *     and metadata that carries no user data AT THAT PLACE: every rule is anchored at the command's (or reply's) top level, a
 *     named path below it, or the stage level of a pipeline (see {@link FieldRule}); none applies inside inserted documents,
 *     update and replacement values, reply batches or pipeline literals, whatever their keys say. Every other value, at any
 *     depth and in every document sequence, becomes a placeholder naming its type, so keys and {@code $} operators stay
 *     readable. Unknown fields are redacted. Server messages are scrubbed by a grammar of the server's messages: only its
 *     wording, field names and a duplicate key's namespace and index stay; every value, quoted or not, becomes
 *     {@code ?}.</li>
 *     <li>{@link #builder()}: the defaults, changed rule by rule.</li>
 * </ul>
 *
 * <p>Kept metadata holds no values under {@link #defaults()}: index keys keep their field names and directions or types, index options
 * stay, while index names (user-chosen text), {@code partialFilterExpression}, every {@code collation} value, {@code weights} values and
 * {@code wildcardProjection} numbers other than 0/1 are redacted; projections, sorts and hints keep only the flags -1, 0, 1, true and
 * false; the aggregate {@code cursor} keeps only {@code batchSize}; {@code $merge.whenMatched} is a pipeline whose literals are redacted.
 * The first field of a command keeps its value only for the commands that name a collection there (or a cursor id: {@code getMore}); for
 * any other ({@code usersInfo}, {@code dropUser}, {@code logApplicationMessage}, {@code eval}...) only a flag such as {@code {"ping": 1}}
 * stays.</p>
 *
 * <p>Kept metadata is typed: each field the defaults keep names the BSON types the server accepts there ({@code limit}: numbers,
 * {@code collection}: a string, {@code readConcern}: its {@code level} string...); a value of another type is redacted like
 * any value. Keys stay, except those that have the form of data ({@link KeyMasking#DATA_LIKE}: e-mail addresses, dates,
 * ids, tokens), which read {@code ?key} ({@code stats.2026-12-01.count} reads {@code stats.?key.count});
 * {@link RedactionPolicyBuilder#keyMasking(KeyMasking)} keeps them all, {@link RedactionPolicyBuilder#maskKeys(String)}
 * masks every key below a path. The command {@code explain} wraps is read by that command's own rules. Texts of failures
 * that are not the server's keep only the words of the driver's message templates, or are withheld.</p>
 *
 * <p>Bytes that the driver's decoder would refuse (lengths out of bounds, unknown types, booleans other than 0 and 1, old
 * binary with inconsistent lengths, keys or kept strings that are not UTF-8), and what the server refuses where a corrupt
 * byte can make a key of a value (keys holding control characters, DEL included; regular expressions' options other than
 * letters) are never forwarded under a redacting policy: the document is replaced by a {@code $redactionError} marker. A
 * verbatim policy checks the framing of what it copies.</p>
 *
 * <p>Immutable and thread-safe. Every policy is applied in one pass that sizes the output exactly and a second that writes it,
 * driven by the same rule walker, into one array allocated once.</p>
 *
 * @since 0.1
 */
public final class RedactionPolicy {
    /** The fewest bytes {@link RedactionPolicyBuilder#maxDocumentBytes(int)} accepts: room for a short command and the cut mark. */
    public static final int MIN_DOCUMENT_BYTES = 64;

    private static final RedactionPolicy SPEC_ONLY = new RedactionPolicyBuilder(false).build();
    private static final RedactionPolicy DEFAULTS = new RedactionPolicyBuilder(true).build();

    private final List<FieldRule> rules;
    private final FieldAction unmatchedCommandAction;
    private final FieldAction unmatchedReplyAction;
    private final PlaceholderStyle placeholderStyle;
    private final KeyMasking keyMasking;
    private final int maxSequenceDocuments;
    private final int maxDocumentBytes;
    private final boolean redactFailures;
    private final CompiledPolicy compiled;

    /** Built only by {@link RedactionPolicyBuilder#build()}, which validates first. */
    RedactionPolicy(final RedactionPolicyBuilder builder) {
        this.rules = Collections.unmodifiableList(new ArrayList<>(builder.rules));
        this.unmatchedCommandAction = builder.unmatchedCommandAction;
        this.unmatchedReplyAction = builder.unmatchedReplyAction;
        this.placeholderStyle = builder.placeholderStyle;
        this.keyMasking = builder.keyMasking;
        this.maxSequenceDocuments = builder.maxSequenceDocuments;
        this.maxDocumentBytes = builder.maxDocumentBytes;
        this.redactFailures = builder.redactFailures;
        this.compiled = CompiledPolicy.compile(plain(rules), PlainRule.action(unmatchedCommandAction.name()),
                PlainRule.action(unmatchedReplyAction.name()), placeholderStyle == PlaceholderStyle.FIXED,
                keyMasking == KeyMasking.DATA_LIKE, maxSequenceDocuments, maxDocumentBytes);
    }

    /**
     * Only the spec's redaction of sensitive commands; everything else verbatim.
     *
     * @return the policy
     * @since 0.1
     */
    public static RedactionPolicy specOnly() {
        return SPEC_ONLY;
    }

    /**
     * Safe by default: shapes kept, values gone. See the class documentation.
     *
     * @return the policy
     * @since 0.1
     */
    public static RedactionPolicy defaults() {
        return DEFAULTS;
    }

    /**
     * A builder that starts from {@link #defaults()}.
     *
     * @return the builder
     * @since 0.1
     */
    public static RedactionPolicyBuilder builder() {
        return new RedactionPolicyBuilder(true);
    }

    /**
     * A builder that starts from the given policy.
     *
     * @param policy the policy to start from
     * @return the builder
     * @since 0.1
     */
    public static RedactionPolicyBuilder builder(final RedactionPolicy policy) {
        return new RedactionPolicyBuilder(notNull("policy", policy));
    }

    /**
     * @return the rules, in the order they were added (a later rule for the same path wins)
     * @since 0.1
     */
    public List<FieldRule> getRules() {
        return rules;
    }

    /**
     * @return the action for command fields no rule names
     * @since 0.1
     */
    public FieldAction getUnmatchedCommandAction() {
        return unmatchedCommandAction;
    }

    /**
     * @return the action for reply fields no rule names
     * @since 0.1
     */
    public FieldAction getUnmatchedReplyAction() {
        return unmatchedReplyAction;
    }

    /**
     * @return the placeholder style
     * @since 0.1
     */
    public PlaceholderStyle getPlaceholderStyle() {
        return placeholderStyle;
    }

    /**
     * @return which keys are replaced where values are redacted
     * @since 0.2
     */
    public KeyMasking getKeyMasking() {
        return keyMasking;
    }

    /**
     * @return how many elements of each document sequence are shown, {@link Integer#MAX_VALUE} for all
     * @since 0.1
     */
    public int getMaxSequenceDocuments() {
        return maxSequenceDocuments;
    }

    /**
     * @return the cap on an output document's size in bytes, 0 for none
     * @since 0.1
     */
    public int getMaxDocumentBytes() {
        return maxDocumentBytes;
    }

    /**
     * @return whether failures (server messages and documents of driver exceptions) are scrubbed of values
     * @since 0.1
     */
    public boolean isRedactFailures() {
        return redactFailures;
    }

    /**
     * Redacts a failure as the listener redacts the failures of ordinary commands under this policy, for code that meets a
     * driver's failure outside the listener (a tracing handler, an application's own error report): the exception and each
     * of its causes rebuilt with the server's and the driver's texts scrubbed and their documents redacted by the reply rules
     * of the command; the type, code, code name, error labels and stack trace kept. Where {@link #isRedactFailures()} is
     * false, the failure itself. (For the spec's sensitive commands the listener keeps less: the code, the code name and the
     * error labels.) Thread-safe; it allocates, as failures are rare.
     *
     * @param failure the failure
     * @param commandName the command whose reply rules redact the failure's documents, such as {@code insert}
     * @return the redacted failure, a new throwable; the failure itself when {@link #isRedactFailures()} is false
     * @throws RuntimeException if the failure can not be rebuilt: then forward a stand-in without its text, never the failure
     * @since 0.5
     */
    public Throwable redactFailure(final Throwable failure, final String commandName) {
        notNull("failure", failure);
        notNull("commandName", commandName);
        return redactFailures ? new FailureRedactor(compiled).redact(failure, commandName) : failure;
    }

    static CompiledPolicy compiledOf(final RedactionPolicy policy) {
        return policy.compiled;
    }

    /** The rules as the plain values the compiled policy is made of: it uses none of the API's types. */
    private static List<PlainRule> plain(final List<FieldRule> rules) {
        List<PlainRule> plain = new ArrayList<>(rules.size());
        for (FieldRule rule : rules) {
            plain.add(new PlainRule(rule.getTarget() == FieldRule.Target.REPLY, rule.getCommandName(), rule.getPath(),
                    rule.getAction().name(), rule.getTypes()));
        }
        return plain;
    }

    @Override
    public String toString() {
        return "RedactionPolicy{rules=" + rules.size() + ", unmatchedCommandAction=" + unmatchedCommandAction
                + ", unmatchedReplyAction=" + unmatchedReplyAction + ", placeholderStyle=" + placeholderStyle
                + ", keyMasking=" + keyMasking + ", maxSequenceDocuments=" + maxSequenceDocuments + ", maxDocumentBytes=" + maxDocumentBytes
                + ", redactFailures=" + redactFailures + "}";
    }


}

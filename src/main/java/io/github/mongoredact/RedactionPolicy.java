package io.github.mongoredact;

import com.mongodb.lang.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import io.github.mongoredact.internal.policy.CompiledPolicy;

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
 * <p>Kept metadata holds no values under {@link #defaults()}: index keys keep their field names and directions or types, index
 * names and options stay, while {@code partialFilterExpression}, every {@code collation} value, {@code weights} values and
 * {@code wildcardProjection} numbers other than 0/1 are redacted; projections, sorts and hints keep only the flags -1, 0, 1,
 * true and false; the aggregate {@code cursor} keeps only {@code batchSize}; {@code $merge.whenMatched} is a pipeline whose
 * literals are redacted. The first field of a command keeps its value only for the commands that name a collection there
 * (or a cursor id: {@code getMore}); for any other ({@code usersInfo}, {@code dropUser}, {@code logApplicationMessage},
 * {@code eval}...) only a flag such as {@code {"ping": 1}} stays.</p>
 *
 * <p>A documented limit: keys are kept, so a key that is data ({@code {"$set": {"prefs.alice@example.com": true}}}) leaves
 * as it is, unless {@link Builder#maskKeys(String)} masks the keys under its path.</p>
 *
 * <p>Bytes that the driver's decoder would refuse (lengths out of bounds, unknown types, booleans other than 0 and 1, old
 * binary with inconsistent lengths, keys or kept strings that are not UTF-8, keys holding control characters) are never
 * forwarded under a redacting policy: the document is replaced by a {@code $redactionError} marker. A verbatim policy checks
 * the framing of what it copies.</p>
 *
 * <p>Immutable and thread-safe. Every policy is applied in one pass that sizes the output exactly and a second that writes it,
 * driven by the same rule walker, into one array allocated once.</p>
 *
 * @since 0.1
 */
public final class RedactionPolicy {
    /** The fewest bytes {@link Builder#maxDocumentBytes(int)} accepts: room for a short command and the cut marker. */
    public static final int MIN_DOCUMENT_BYTES = 64;

    private static final RedactionPolicy SPEC_ONLY = new Builder(false).build();
    private static final RedactionPolicy DEFAULTS = new Builder(true).build();

    private final List<FieldRule> rules;
    private final FieldAction unmatchedCommandAction;
    private final FieldAction unmatchedReplyAction;
    private final PlaceholderStyle placeholderStyle;
    private final int maxSequenceDocuments;
    private final int maxDocumentBytes;
    private final boolean redactFailures;
    private final CompiledPolicy compiled;

    private RedactionPolicy(final Builder builder) {
        this.rules = Collections.unmodifiableList(new ArrayList<>(builder.rules));
        this.unmatchedCommandAction = builder.unmatchedCommandAction;
        this.unmatchedReplyAction = builder.unmatchedReplyAction;
        this.placeholderStyle = builder.placeholderStyle;
        this.maxSequenceDocuments = builder.maxSequenceDocuments;
        this.maxDocumentBytes = builder.maxDocumentBytes;
        this.redactFailures = builder.redactFailures;
        this.compiled = CompiledPolicy.compile(rules, unmatchedCommandAction, unmatchedReplyAction,
                placeholderStyle == PlaceholderStyle.FIXED, maxSequenceDocuments, maxDocumentBytes);
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
    public static Builder builder() {
        return new Builder(true);
    }

    /**
     * A builder that starts from the given policy.
     *
     * @param policy the policy to start from
     * @return the builder
     * @since 0.1
     */
    public static Builder builder(final RedactionPolicy policy) {
        return new Builder(notNull("policy", policy));
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

    static CompiledPolicy compiledOf(final RedactionPolicy policy) {
        return policy.compiled;
    }

    @Override
    public String toString() {
        return "RedactionPolicy{rules=" + rules.size() + ", unmatchedCommandAction=" + unmatchedCommandAction
                + ", unmatchedReplyAction=" + unmatchedReplyAction + ", placeholderStyle=" + placeholderStyle
                + ", maxSequenceDocuments=" + maxSequenceDocuments + ", maxDocumentBytes=" + maxDocumentBytes
                + ", redactFailures=" + redactFailures + "}";
    }

    /**
     * Builds a {@link RedactionPolicy}. Not thread-safe; {@link #build()} validates and copies.
     *
     * @since 0.1
     */
    public static final class Builder {
        private final List<FieldRule> rules = new ArrayList<>();
        private FieldAction unmatchedCommandAction;
        private FieldAction unmatchedReplyAction;
        private PlaceholderStyle placeholderStyle = PlaceholderStyle.TYPED;
        private int maxSequenceDocuments = Integer.MAX_VALUE;
        private int maxDocumentBytes;
        private boolean redactFailures;

        private Builder(final boolean defaults) {
            if (defaults) {
                DefaultRules.addTo(this);
                unmatchedCommandAction = FieldAction.REDACT;
                unmatchedReplyAction = FieldAction.REDACT;
                redactFailures = true;
            } else {
                unmatchedCommandAction = FieldAction.KEEP;
                unmatchedReplyAction = FieldAction.KEEP;
                redactFailures = false;
            }
        }

        private Builder(final RedactionPolicy policy) {
            rules.addAll(policy.rules);
            unmatchedCommandAction = policy.unmatchedCommandAction;
            unmatchedReplyAction = policy.unmatchedReplyAction;
            placeholderStyle = policy.placeholderStyle;
            maxSequenceDocuments = policy.maxSequenceDocuments;
            maxDocumentBytes = policy.maxDocumentBytes;
            redactFailures = policy.redactFailures;
        }

        /**
         * Sets the action for a command field path, for all commands. A later rule for the same path replaces an earlier one.
         *
         * @param path the dotted path (see {@link FieldRule})
         * @param action the action
         * @return this
         * @since 0.1
         */
        public Builder field(final String path, final FieldAction action) {
            return rule(FieldRule.Target.COMMAND, null, path, action);
        }

        /**
         * Sets the action for a command field path of one command.
         *
         * @param commandName the command name, such as {@code find}
         * @param path the dotted path
         * @param action the action
         * @return this
         * @since 0.1
         */
        public Builder field(final String commandName, final String path, final FieldAction action) {
            return rule(FieldRule.Target.COMMAND, notNull("commandName", commandName), path, action);
        }

        /**
         * Sets the action for a reply field path, for the replies of all commands.
         *
         * @param path the dotted path
         * @param action the action
         * @return this
         * @since 0.1
         */
        public Builder replyField(final String path, final FieldAction action) {
            return rule(FieldRule.Target.REPLY, null, path, action);
        }

        /**
         * Sets the action for a reply field path, for the replies of one command.
         *
         * @param commandName the command name
         * @param path the dotted path
         * @param action the action
         * @return this
         * @since 0.1
         */
        public Builder replyField(final String commandName, final String path, final FieldAction action) {
            return rule(FieldRule.Target.REPLY, notNull("commandName", commandName), path, action);
        }

        /**
         * Keeps a command field path verbatim, for all commands.
         *
         * @param path the dotted path
         * @return this
         * @since 0.1
         */
        public Builder keep(final String path) {
            return field(path, FieldAction.KEEP);
        }

        /**
         * Redacts a command field path, for all commands.
         *
         * @param path the dotted path
         * @return this
         * @since 0.1
         */
        public Builder redact(final String path) {
            return field(path, FieldAction.REDACT);
        }

        /**
         * Masks the keys at and below a command field path, for all commands: every key there becomes {@code ?0},
         * {@code ?1}... and every value a placeholder ({@link FieldAction#REDACT_KEYS}). For keys that are data, such as
         * {@code maskKeys("updates.u.$set")} for {@code {"$set": {"prefs.alice@example.com": true}}}.
         *
         * @param path the dotted path
         * @return this
         * @since 0.2
         */
        public Builder maskKeys(final String path) {
            return field(path, FieldAction.REDACT_KEYS);
        }

        /**
         * Leaves a command field path out, for all commands.
         *
         * @param path the dotted path
         * @return this
         * @since 0.1
         */
        public Builder drop(final String path) {
            return field(path, FieldAction.DROP);
        }

        /**
         * Adds a rule. A later rule for the same target, command and path replaces an earlier one.
         *
         * @param target the document the rule applies to
         * @param commandName the command the rule is limited to, or null for all
         * @param path the dotted path
         * @param action the action
         * @return this
         * @since 0.1
         */
        public Builder rule(final FieldRule.Target target, @Nullable final String commandName, final String path,
                            final FieldAction action) {
            FieldRule rule = new FieldRule(target, commandName, path, action);
            rules.removeIf(r -> r.getTarget() == rule.getTarget() && r.getPath().equals(rule.getPath())
                    && java.util.Objects.equals(r.getCommandName(), rule.getCommandName()));
            rules.add(rule);
            return this;
        }

        /**
         * Removes every rule, leaving the unmatched actions to decide.
         *
         * @return this
         * @since 0.1
         */
        public Builder clearRules() {
            rules.clear();
            return this;
        }

        /**
         * Sets the action for command fields that no rule names: {@link FieldAction#REDACT} (deny by default, the default) or
         * {@link FieldAction#KEEP}.
         *
         * @param action the action
         * @return this
         * @since 0.1
         */
        public Builder unmatchedCommandAction(final FieldAction action) {
            this.unmatchedCommandAction = notNull("unmatchedCommandAction", action);
            return this;
        }

        /**
         * Sets the action for reply fields that no rule names.
         *
         * @param action the action
         * @return this
         * @since 0.1
         */
        public Builder unmatchedReplyAction(final FieldAction action) {
            this.unmatchedReplyAction = notNull("unmatchedReplyAction", action);
            return this;
        }

        /**
         * @param style the placeholder style
         * @return this
         * @since 0.1
         */
        public Builder placeholderStyle(final PlaceholderStyle style) {
            this.placeholderStyle = notNull("placeholderStyle", style);
            return this;
        }

        /**
         * Shows at most this many elements of each document sequence ({@code documents}, {@code updates}, {@code deletes},
         * {@code ops}, {@code nsInfo}) and of reply batches ({@code cursor.firstBatch}, {@code cursor.nextBatch}); the elements
         * left out are replaced by one last element {@code {"$omitted": count}}.
         *
         * @param max the number of elements to show, 0 or more; {@link Integer#MAX_VALUE} for all (the default)
         * @return this
         * @since 0.1
         */
        public Builder maxSequenceDocuments(final int max) {
            this.maxSequenceDocuments = max;
            return this;
        }

        /**
         * Caps the size of every output document. A document that would be larger is cut at an element boundary and ends with
         * a field {@code "$truncatedBytes"} holding how many bytes of the redacted document were left out.
         *
         * @param max the cap in bytes, at least {@link #MIN_DOCUMENT_BYTES}; 0 for no cap (the default)
         * @return this
         * @since 0.1
         */
        public Builder maxDocumentBytes(final int max) {
            this.maxDocumentBytes = max;
            return this;
        }

        /**
         * Whether failures are scrubbed of the values they quote (true for the defaults).
         *
         * @param redact whether to scrub failures
         * @return this
         * @since 0.1
         */
        public Builder redactFailures(final boolean redact) {
            this.redactFailures = redact;
            return this;
        }

        /**
         * Validates and builds the policy.
         *
         * @return the policy
         * @throws IllegalArgumentException if a setting or a rule is invalid; the message names it
         * @since 0.1
         */
        public RedactionPolicy build() {
            if (maxSequenceDocuments < 0) {
                throw new IllegalArgumentException("maxSequenceDocuments must be 0 or more, was " + maxSequenceDocuments);
            }
            if (maxDocumentBytes != 0 && maxDocumentBytes < MIN_DOCUMENT_BYTES) {
                throw new IllegalArgumentException("maxDocumentBytes must be 0 (no cap) or at least " + MIN_DOCUMENT_BYTES
                        + ", was " + maxDocumentBytes);
            }
            if (unmatchedCommandAction == FieldAction.SCRUB || unmatchedCommandAction == FieldAction.DROP
                    || unmatchedCommandAction == FieldAction.PIPELINE) {
                throw new IllegalArgumentException("unmatchedCommandAction must be KEEP, REDACT or REDACT_KEYS, was "
                        + unmatchedCommandAction);
            }
            if (unmatchedReplyAction == FieldAction.SCRUB || unmatchedReplyAction == FieldAction.DROP
                    || unmatchedReplyAction == FieldAction.PIPELINE) {
                throw new IllegalArgumentException("unmatchedReplyAction must be KEEP, REDACT or REDACT_KEYS, was "
                        + unmatchedReplyAction);
            }
            for (FieldRule rule : rules) {
                CompiledPolicy.validatePath(rule.getPath());
            }
            return new RedactionPolicy(this);
        }
    }
}

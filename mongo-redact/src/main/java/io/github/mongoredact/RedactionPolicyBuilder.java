package io.github.mongoredact;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import org.bson.BsonType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * Builds a {@link RedactionPolicy}: {@link RedactionPolicy#builder()} starts from the defaults,
 * {@link RedactionPolicy#builder(RedactionPolicy)} from a policy of yours. Not thread-safe; {@link #build()} validates and
 * copies.
 *
 * @since 0.1
 */
public final class RedactionPolicyBuilder {
    final List<FieldRule> rules = new ArrayList<>();
    FieldAction unmatchedCommandAction;
    FieldAction unmatchedReplyAction;
    PlaceholderStyle placeholderStyle = PlaceholderStyle.TYPED;
    KeyMasking keyMasking;
    int maxSequenceDocuments = Integer.MAX_VALUE;
    int maxDocumentBytes;
    boolean redactFailures;

    RedactionPolicyBuilder(final boolean defaults) {
        if (defaults) {
            DefaultRules.addTo(this);
            unmatchedCommandAction = FieldAction.REDACT;
            unmatchedReplyAction = FieldAction.REDACT;
            keyMasking = KeyMasking.DATA_LIKE;
            redactFailures = true;
        } else {
            unmatchedCommandAction = FieldAction.KEEP;
            unmatchedReplyAction = FieldAction.KEEP;
            keyMasking = KeyMasking.NONE;
            redactFailures = false;
        }
    }

    RedactionPolicyBuilder(final RedactionPolicy policy) {
        rules.addAll(policy.getRules());
        unmatchedCommandAction = policy.getUnmatchedCommandAction();
        unmatchedReplyAction = policy.getUnmatchedReplyAction();
        placeholderStyle = policy.getPlaceholderStyle();
        keyMasking = policy.getKeyMasking();
        maxSequenceDocuments = policy.getMaxSequenceDocuments();
        maxDocumentBytes = policy.getMaxDocumentBytes();
        redactFailures = policy.isRedactFailures();
    }

    /**
     * Sets the action for a command field path, for all commands. A later rule for the same path replaces an earlier one.
     *
     * @param path the dotted path (see {@link FieldRule})
     * @param action the action
     * @return this
     * @since 0.1
     */
    public RedactionPolicyBuilder field(final String path, final FieldAction action) {
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
    public RedactionPolicyBuilder field(final String commandName, final String path, final FieldAction action) {
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
    public RedactionPolicyBuilder replyField(final String path, final FieldAction action) {
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
    public RedactionPolicyBuilder replyField(final String commandName, final String path, final FieldAction action) {
        return rule(FieldRule.Target.REPLY, notNull("commandName", commandName), path, action);
    }

    /**
     * Keeps a command field path verbatim, for all commands.
     *
     * @param path the dotted path
     * @return this
     * @since 0.1
     */
    public RedactionPolicyBuilder keep(final String path) {
        return field(path, FieldAction.KEEP);
    }

    /**
     * Keeps a command field path verbatim, for all commands, when its value has one of the given BSON types; a value of
     * another type is redacted, and the elements of an array are each kept or redacted by the same test. For example
     * {@code keep("maxScan", BsonType.INT32, BsonType.INT64)}.
     *
     * @param path the dotted path
     * @param type a type kept
     * @param more more types kept
     * @return this
     * @since 0.2
     */
    public RedactionPolicyBuilder keep(final String path, final BsonType type, final BsonType... more) {
        return rule(FieldRule.Target.COMMAND, null, path, FieldAction.KEEP, types(type, more));
    }

    /**
     * Redacts a command field path, for all commands.
     *
     * @param path the dotted path
     * @return this
     * @since 0.1
     */
    public RedactionPolicyBuilder redact(final String path) {
        return field(path, FieldAction.REDACT);
    }

    /**
     * Masks the keys at and below a command field path, for all commands: every key there becomes {@code ?0},
     * {@code ?1}... and every value a placeholder ({@link FieldAction#REDACT_KEYS}), whatever the keys look like. For keys
     * that are data without having its form ({@link #keyMasking(KeyMasking)} masks those that have it), such as
     * {@code maskKeys("updates.u.$set")} for {@code {"$set": {"prefs.alice": true}}}.
     *
     * @param path the dotted path
     * @return this
     * @since 0.2
     */
    public RedactionPolicyBuilder maskKeys(final String path) {
        return field(path, FieldAction.REDACT_KEYS);
    }

    /**
     * Sets which keys are replaced where values are redacted: {@link KeyMasking#DATA_LIKE} (the default of
     * {@link RedactionPolicy#defaults()}) replaces the segments of keys that have the form of data by {@code ?key};
     * {@link KeyMasking#NONE} keeps every key as it is (the default of {@link RedactionPolicy#specOnly()}). To mask every key
     * below a path, whatever it looks like, add {@link #maskKeys(String)}.
     *
     * @param masking the key masking
     * @return this
     * @since 0.2
     */
    public RedactionPolicyBuilder keyMasking(final KeyMasking masking) {
        this.keyMasking = notNull("keyMasking", masking);
        return this;
    }

    /**
     * Leaves a command field path out, for all commands.
     *
     * @param path the dotted path
     * @return this
     * @since 0.1
     */
    public RedactionPolicyBuilder drop(final String path) {
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
    public RedactionPolicyBuilder rule(final FieldRule.Target target, @Nullable final String commandName, final String path,
                        final FieldAction action) {
        return rule(target, commandName, path, action, EnumSet.noneOf(BsonType.class));
    }

    /**
     * Adds a {@link FieldAction#KEEP} rule that keeps only values of the given BSON types: a value of another type is
     * redacted, and the elements of an array are each kept or redacted by the same test. A later rule for the same target,
     * command and path replaces an earlier one.
     *
     * @param target the document the rule applies to
     * @param commandName the command the rule is limited to, or null for all
     * @param path the dotted path
     * @param type a type kept
     * @param more more types kept
     * @return this
     * @since 0.2
     */
    public RedactionPolicyBuilder keep(final FieldRule.Target target, @Nullable final String commandName, final String path,
                                       final BsonType type, final BsonType... more) {
        return rule(target, commandName, path, FieldAction.KEEP, types(type, more));
    }

    private RedactionPolicyBuilder rule(final FieldRule.Target target, @Nullable final String commandName, final String path,
                                        final FieldAction action, final Set<BsonType> types) {
        FieldRule rule = new FieldRule(target, commandName, path, action, types);
        rules.removeIf(r -> r.getTarget() == rule.getTarget() && r.getPath().equals(rule.getPath())
                && java.util.Objects.equals(r.getCommandName(), rule.getCommandName()));
        rules.add(rule);
        return this;
    }

    private static Set<BsonType> types(final BsonType type, final BsonType... more) {
        Set<BsonType> types = EnumSet.of(notNull("type", type));
        for (BsonType t : Arrays.asList(notNull("types", more))) {
            types.add(notNull("type", t));
        }
        return types;
    }

    /**
     * Removes every rule, leaving the unmatched actions to decide.
     *
     * @return this
     * @since 0.1
     */
    public RedactionPolicyBuilder clearRules() {
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
    public RedactionPolicyBuilder unmatchedCommandAction(final FieldAction action) {
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
    public RedactionPolicyBuilder unmatchedReplyAction(final FieldAction action) {
        this.unmatchedReplyAction = notNull("unmatchedReplyAction", action);
        return this;
    }

    /**
     * @param style the placeholder style
     * @return this
     * @since 0.1
     */
    public RedactionPolicyBuilder placeholderStyle(final PlaceholderStyle style) {
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
    public RedactionPolicyBuilder maxSequenceDocuments(final int max) {
        this.maxSequenceDocuments = max;
        return this;
    }

    /**
     * Caps the size of every output document. A document that would be larger is cut at an element boundary and ends with
     * a field {@code "$truncatedBytes"} holding how many bytes of the redacted document were left out.
     *
     * @param max the cap in bytes, at least {@link RedactionPolicy#MIN_DOCUMENT_BYTES}; 0 for no cap (the default)
     * @return this
     * @since 0.1
     */
    public RedactionPolicyBuilder maxDocumentBytes(final int max) {
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
    public RedactionPolicyBuilder redactFailures(final boolean redact) {
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
        if (maxDocumentBytes != 0 && maxDocumentBytes < RedactionPolicy.MIN_DOCUMENT_BYTES) {
            throw new IllegalArgumentException("maxDocumentBytes must be 0 (no cap) or at least " + RedactionPolicy.MIN_DOCUMENT_BYTES
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

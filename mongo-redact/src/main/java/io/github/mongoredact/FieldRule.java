package io.github.mongoredact;

import com.mongodb.lang.Nullable;
import org.bson.BsonType;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

import static io.github.mongoredact.internal.Checks.notNull;

/**
 * One rule of a {@link RedactionPolicy}: what to do with a field path of a command or of a reply.
 *
 * <p>A rule names where it applies, its context:</p>
 * <ul>
 *     <li>A plain dotted path is anchored at the top level of the command (or reply) document; array elements are
 *     transparent, so {@code updates.q} names the {@code q} field of every element of {@code updates}. A segment {@code *}
 *     matches any one key.</li>
 *     <li>A path that starts with {@code @stage.} is anchored at every stage of every pipeline: the elements of a field whose
 *     action is {@link FieldAction#PIPELINE} ({@code pipeline} of {@code aggregate}, {@code $lookup.pipeline},
 *     {@code $unionWith.pipeline}, {@code $facet.*}, {@code $merge.whenMatched} under the defaults). So
 *     {@code @stage.$limit} keeps the argument of a {@code $limit} stage, and never a key {@code $limit} inside a literal or an
 *     inserted document.</li>
 *     <li>A path that starts with {@code **.} matches its remaining segments at any depth, user documents and containers
 *     kept whole included (for example a {@code DROP} of {@code **.password} on top of {@link RedactionPolicy#specOnly()});
 *     its first segment may be a document sequence's name ({@code **.documents.email}). The defaults use none: a
 *     {@code KEEP} there would keep that key's value wherever a user document holds it.</li>
 * </ul>
 *
 * <p>A {@link FieldAction#KEEP} may name the BSON types it keeps ({@link #getTypes()}): a value of another type is redacted
 * like any value, and an array is looked into, each element kept or redacted by the same rule. The defaults keep every field
 * only with the types the server accepts there ({@code limit}: numbers, {@code collection}: a string...).</p>
 *
 * <p>The inner command of {@code explain} is read by that command's own rules, as if it were sent alone: the rules of
 * {@code explain} apply to its own fields ({@code verbosity}, {@code comment}...), never to the explained command's.</p>
 *
 * @since 0.1
 */
public final class FieldRule {
    /**
     * Which document a rule applies to.
     *
     * @since 0.1
     */
    public enum Target {
        /** The started command. */
        COMMAND,
        /** The reply of a succeeded command. */
        REPLY
    }

    private final Target target;
    @Nullable
    private final String commandName;
    private final String path;
    private final FieldAction action;
    private final Set<BsonType> types;

    FieldRule(final Target target, @Nullable final String commandName, final String path, final FieldAction action) {
        this(target, commandName, path, action, Collections.emptySet());
    }

    FieldRule(final Target target, @Nullable final String commandName, final String path, final FieldAction action,
              final Set<BsonType> types) {
        this.target = notNull("target", target);
        this.commandName = commandName;
        this.path = notNull("path", path);
        this.action = notNull("action", action);
        this.types = Collections.unmodifiableSet(notNull("types", types).isEmpty() ? EnumSet.noneOf(BsonType.class)
                : EnumSet.copyOf(types));
    }

    /**
     * @return the document the rule applies to
     * @since 0.1
     */
    public Target getTarget() {
        return target;
    }

    /**
     * @return the command name the rule is limited to, or null for all commands
     * @since 0.1
     */
    @Nullable
    public String getCommandName() {
        return commandName;
    }

    /**
     * @return the dotted path
     * @since 0.1
     */
    public String getPath() {
        return path;
    }

    /**
     * @return the action
     * @since 0.1
     */
    public FieldAction getAction() {
        return action;
    }

    /**
     * @return for a {@link FieldAction#KEEP}, the BSON types it keeps (a value of another type is redacted); empty: any type
     * @since 0.2
     */
    public Set<BsonType> getTypes() {
        return types;
    }

    @Override
    public boolean equals(final Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof FieldRule)) {
            return false;
        }
        FieldRule that = (FieldRule) o;
        return target == that.target && Objects.equals(commandName, that.commandName) && path.equals(that.path)
                && action == that.action && types.equals(that.types);
    }

    @Override
    public int hashCode() {
        return Objects.hash(target, commandName, path, action, types);
    }

    @Override
    public String toString() {
        return "FieldRule{target=" + target + (commandName == null ? "" : ", commandName=" + commandName)
                + ", path=" + path + ", action=" + action + (types.isEmpty() ? "" : ", types=" + types) + "}";
    }
}

package io.github.mongoredact.internal.rules;

import com.mongodb.lang.Nullable;
import org.bson.BsonType;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * One rule of a policy as plain values: the form in which the API hands its rules to {@link CompiledPolicy#compile}, so that
 * this package uses none of the API's types. Immutable.
 */
public final class PlainRule {
    /** Whether the rule applies to replies (else to commands). */
    final boolean reply;
    /** The command the rule is scoped to, or null for every command. */
    @Nullable
    final String commandName;
    final String path;
    /** The action's code ({@link CompiledPolicy#KEEP}...). */
    final byte action;
    /** The types a {@code KEEP} is limited to; empty for every type. */
    final Set<BsonType> types;

    /**
     * @param reply whether the rule applies to replies (else to commands)
     * @param commandName the command the rule is scoped to, or null for every command
     * @param path the dotted path, checked ({@link CompiledPolicy#validatePath})
     * @param actionName the name of the action ({@code KEEP}, {@code REDACT}...: {@link #action(String)})
     * @param types the types a {@code KEEP} is limited to; empty for every type
     */
    public PlainRule(final boolean reply, @Nullable final String commandName, final String path, final String actionName,
                     final Set<BsonType> types) {
        this.reply = reply;
        this.commandName = commandName;
        this.path = path;
        this.action = action(actionName);
        this.types = Collections.unmodifiableSet(new HashSet<>(types));
    }

    /**
     * @param actionName the name of an action, as the API's enum of actions spells it
     * @return the action's code in a compiled policy
     * @throws IllegalArgumentException if the name is not an action's
     */
    public static byte action(final String actionName) {
        switch (actionName) {
            case "KEEP":
                return CompiledPolicy.KEEP;
            case "REDACT":
                return CompiledPolicy.REDACT;
            case "REDACT_KEYS":
                return CompiledPolicy.REDACT_KEYS;
            case "SCRUB":
                return CompiledPolicy.SCRUB;
            case "DROP":
                return CompiledPolicy.DROP;
            case "KEEP_FLAGS":
                return CompiledPolicy.KEEP_FLAGS;
            case "PIPELINE":
                return CompiledPolicy.PIPELINE;
            default:
                throw new IllegalArgumentException("unknown action " + actionName);
        }
    }
}

package io.github.mongoredact.internal.rules;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonTypes;
import org.bson.BsonType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules of a policy compiled for the byte walker, per command name: the tree of paths anchored at the document's top
 * level, the tree of paths anchored at a pipeline stage ({@code @stage.}, entered through {@code PIPELINE}
 * fields) and the {@code **.} suffix rules, all as UTF-8 bytes; a {@code KEEP} with types keeps only values of those types
 * ({@link Node#accepts}). Immutable and thread-safe.
 */
public final class CompiledPolicy {
    static final byte NONE = -1;
    public static final byte KEEP = 0;
    public static final byte REDACT = 1;
    public static final byte REDACT_KEYS = 2;
    public static final byte SCRUB = 3;
    public static final byte DROP = 4;
    public static final byte KEEP_FLAGS = 5;
    public static final byte PIPELINE = 6;
    /** Internal: numbers -1, 0, 1 and booleans kept, nothing else (the first field of a command not known to name a collection). */
    public static final byte FLAGS_ONLY = 7;
    /** The prefix of paths anchored at a pipeline stage. */
    static final String STAGE_CONTEXT = "@stage";
    private static final int SUFFIX_TABLE = 64;

    private final RuleSet commandRules;
    private final RuleSet replyRules;
    private final Map<String, RuleSet> commandRulesByName;
    private final Map<String, RuleSet> replyRulesByName;
    /** The command names of {@link #commandRulesByName} as UTF-8, for a lookup by bytes. */
    private final KeyTable commandNames;
    private final RuleSet[] commandSets;
    public final boolean fixedPlaceholders;
    /** Whether keys that look like data are masked where values are redacted ({@code DataLikeKeys}). */
    public final boolean maskDataLikeKeys;
    public final int maxSequenceDocuments;
    public final int maxDocumentBytes;

    private CompiledPolicy(final List<PlainRule> rules, final byte unmatchedCommand, final byte unmatchedReply,
                           final boolean fixedPlaceholders, final boolean maskDataLikeKeys, final int maxSequenceDocuments,
                           final int maxDocumentBytes) {
        this.fixedPlaceholders = fixedPlaceholders;
        this.maskDataLikeKeys = maskDataLikeKeys;
        this.maxSequenceDocuments = maxSequenceDocuments;
        this.maxDocumentBytes = maxDocumentBytes;
        // a copy is the input only when nothing is capped, limited or masked
        boolean unlimited = maxSequenceDocuments == Integer.MAX_VALUE && maxDocumentBytes == 0 && !maskDataLikeKeys;
        this.commandRules = RuleSet.of(rules, false, null, unmatchedCommand, unlimited);
        this.replyRules = RuleSet.of(rules, true, null, unmatchedReply, unlimited);
        Set<String> namedCommands = new HashSet<>();
        Set<String> replyNames = new HashSet<>();
        for (PlainRule rule : rules) {
            if (rule.commandName != null) {
                (rule.reply ? replyNames : namedCommands).add(rule.commandName);
            }
        }
        Map<String, RuleSet> byName = new HashMap<>();
        for (String name : namedCommands) {
            byName.put(name, RuleSet.of(rules, false, name, unmatchedCommand, unlimited));
        }
        this.commandRulesByName = Collections.unmodifiableMap(byName);
        byte[][] names = new byte[byName.size()][];
        this.commandSets = new RuleSet[byName.size()];
        int i = 0;
        for (Map.Entry<String, RuleSet> entry : byName.entrySet()) {
            names[i] = entry.getKey().getBytes(StandardCharsets.UTF_8);
            this.commandSets[i++] = entry.getValue();
        }
        this.commandNames = new KeyTable(names);
        byName = new HashMap<>();
        for (String name : replyNames) {
            byName.put(name, RuleSet.of(rules, true, name, unmatchedReply, unlimited));
        }
        this.replyRulesByName = Collections.unmodifiableMap(byName);
        boolean sequenceLimit = maxSequenceDocuments != Integer.MAX_VALUE;
        boolean capped = maxDocumentBytes > 0;
        replyRules.cursorIds = ReplyCursorIds.decide(replyRules, maskDataLikeKeys, sequenceLimit, capped);
        for (RuleSet set : byName.values()) {
            set.cursorIds = ReplyCursorIds.decide(set, maskDataLikeKeys, sequenceLimit, capped);
        }
    }

    /**
     * @param rules the rules, later ones winning
     * @param unmatchedCommand the action for unmatched command fields ({@link PlainRule#action})
     * @param unmatchedReply the action for unmatched reply fields
     * @param fixedPlaceholders whether placeholders are the fixed {@code "?"}
     * @param maskDataLikeKeys whether keys that look like data are masked where values are redacted
     * @param maxSequenceDocuments elements shown per sequence
     * @param maxDocumentBytes the output cap, 0 for none
     * @return the compiled policy
     */
    public static CompiledPolicy compile(final List<PlainRule> rules, final byte unmatchedCommand,
                                         final byte unmatchedReply, final boolean fixedPlaceholders,
                                         final boolean maskDataLikeKeys, final int maxSequenceDocuments,
                                         final int maxDocumentBytes) {
        return new CompiledPolicy(rules, unmatchedCommand, unmatchedReply, fixedPlaceholders, maskDataLikeKeys,
                maxSequenceDocuments, maxDocumentBytes);
    }

    /**
     * Checks a rule path.
     *
     * @param path the dotted path
     * @throws IllegalArgumentException naming what is wrong
     */
    public static void validatePath(final String path) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("a rule path can not be empty");
        }
        String[] segments = path.split("\\.", -1);
        if (segments[0].startsWith("@") && !(segments[0].equals(STAGE_CONTEXT) && segments.length > 1)) {
            throw new IllegalArgumentException("rule path '" + path + "': a context must be '" + STAGE_CONTEXT
                    + "' followed by at least one segment, found '" + segments[0] + "'");
        }
        for (int i = 0; i < segments.length; i++) {
            String segment = segments[i];
            if (segment.isEmpty()) {
                throw new IllegalArgumentException("rule path '" + path + "' has an empty segment at index " + i);
            }
            if (segment.equals("**") && i != 0) {
                throw new IllegalArgumentException("rule path '" + path + "': '**' may only be the first segment, found at index "
                        + i);
            }
            if (segment.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("rule path '" + path + "' holds a NUL character in segment " + i);
            }
        }
        if (segments[0].equals("**") && segments.length == 1) {
            throw new IllegalArgumentException("rule path '**' needs at least one segment after it");
        }
    }

    public RuleSet commandRules(final String commandName) {
        RuleSet set = commandRulesByName.isEmpty() ? null : commandRulesByName.get(commandName);
        return set == null ? commandRules : set;
    }

    /** @return the rules of the command named {@code src[off, off + len)} (UTF-8); allocation-free */
    public RuleSet commandRules(final byte[] src, final int off, final int len) {
        int i = commandNames.indexOf(src, off, len);
        return i < 0 ? commandRules : commandSets[i];
    }

    public RuleSet replyRules(final String commandName) {
        RuleSet set = replyRulesByName.isEmpty() ? null : replyRulesByName.get(commandName);
        return set == null ? replyRules : set;
    }

    /**
     * The compiled rules for one target and command.
     */
    public static final class RuleSet {
        public final Node root;
        /** The paths anchored at each stage of a pipeline ({@code @stage.}). */
        public final Node stage;
        final Suffix[] suffixes;
        /** The suffix rules by the hash of their last segment ({@link #keyHash}); rules ending in {@code *} in every slot. */
        final Suffix[][] suffixesByLast;
        public final byte unmatched;
        /** No rule and everything kept, no caps: the output is the input. */
        public final boolean verbatim;
        /**
         * Of a reply rule set: whether its copy shows {@code cursor.id} ({@link ReplyCursorIds}); set once by the policy's
         * constructor, which publishes it through its final fields.
         */
        private byte cursorIds = ReplyCursorIds.NEVER;

        private RuleSet(final Node root, final Node stage, final Suffix[] suffixes, final byte unmatched,
                        final boolean verbatim) {
            this.root = root;
            this.stage = stage;
            this.suffixes = suffixes;
            this.suffixesByLast = new Suffix[SUFFIX_TABLE][];
            for (int slot = 0; slot < SUFFIX_TABLE; slot++) {
                List<Suffix> inSlot = new ArrayList<>();
                for (Suffix suffix : suffixes) {
                    byte[] last = suffix.segments[suffix.segments.length - 1];
                    boolean wildcard = last.length == 1 && last[0] == '*';
                    if (wildcard || (keyHash(last, 0, last.length) & (SUFFIX_TABLE - 1)) == slot) {
                        inSlot.add(suffix);
                    }
                }
                suffixesByLast[slot] = inSlot.toArray(new Suffix[0]);
            }
            this.unmatched = unmatched;
            this.verbatim = verbatim;
        }

        /** @return of a reply rule set: whether its copy shows {@code cursor.id}, as {@link ReplyCursorIds} answers */
        public byte cursorIds() {
            return cursorIds;
        }

        static RuleSet of(final List<PlainRule> rules, final boolean reply, @Nullable final String commandName,
                          final byte unmatched, final boolean unlimited) {
            Node root = new Node();
            Node stage = new Node();
            List<Suffix> suffixes = new ArrayList<>();
            // global rules first, then the command's own, so that the command's own win
            for (int pass = 0; pass < 2; pass++) {
                for (PlainRule rule : rules) {
                    if (rule.reply != reply) {
                        continue;
                    }
                    String ruleCommand = rule.commandName;
                    boolean global = ruleCommand == null;
                    if (pass == 0 ? !global : global || !ruleCommand.equals(commandName)) {
                        continue;
                    }
                    String[] segments = rule.path.split("\\.");
                    byte action = rule.action;
                    long types = typeMask(rule.types);
                    if (segments[0].equals("**")) {
                        byte[][] parts = new byte[segments.length - 1][];
                        for (int i = 1; i < segments.length; i++) {
                            parts[i - 1] = segments[i].getBytes(StandardCharsets.UTF_8);
                        }
                        suffixes.removeIf(s -> s.sameSegments(parts));
                        suffixes.add(new Suffix(parts, action));
                    } else {
                        boolean staged = segments[0].equals(STAGE_CONTEXT);
                        Node node = staged ? stage : root;
                        for (int i = staged ? 1 : 0; i < segments.length; i++) {
                            node = node.childOrCreate(segments[i].getBytes(StandardCharsets.UTF_8));
                        }
                        node.action = action;
                        node.types = types;
                    }
                }
            }
            boolean verbatim = unlimited && unmatched == KEEP && suffixes.isEmpty() && !root.hasChildren()
                    && !stage.hasChildren();
            return new RuleSet(root, stage, suffixes.toArray(new Suffix[0]), unmatched, verbatim);
        }
    }

    /** @return the bit of a BSON type byte in a mask of types: its value, 62 for max key, 63 for min key */
    static long typeBit(final byte type) {
        if (type == BsonTypes.MIN_KEY) {
            return 1L << 63;
        }
        return type == BsonTypes.MAX_KEY ? 1L << 62 : 1L << (type & 0x3F);
    }

    private static long typeMask(final Set<BsonType> types) {
        long mask = 0;
        for (BsonType type : types) {
            mask |= typeBit((byte) type.getValue());
        }
        return mask;
    }

    /** A hash of key bytes that picks the suffix rules that may end with that key. Allocation-free. */
    static int keyHash(final byte[] src, final int off, final int len) {
        int h = len;
        for (int i = off; i < off + len; i++) {
            h = 31 * h + src[i];
        }
        return h ^ (h >>> 7);
    }

    static int suffixSlot(final byte[] src, final int off, final int len) {
        return keyHash(src, off, len) & (SUFFIX_TABLE - 1);
    }

    /**
     * A node of the path tree: the action set for this path, if any, and the children by key.
     */
    public static final class Node {
        private static final byte[] WILDCARD = {'*'};
        byte action = NONE;
        /** For {@code KEEP}: the types kept ({@link #typeBit}); 0 for any. */
        long types;
        private byte[][] names = new byte[0][];
        private KeyTable table = KeyTable.EMPTY;
        private Node[] children = new Node[0];
        @Nullable
        private Node wildcard;

        public boolean hasChildren() {
            return children.length > 0 || wildcard != null;
        }

        /** @return whether a value of this BSON type may be kept here */
        public boolean accepts(final byte type) {
            return types == 0 || (types & typeBit(type)) != 0;
        }

        /** @return whether this node is the wildcard child of {@code parent}: the key it matched is not named by a rule */
        boolean isWildcardOf(final Node parent) {
            return parent.wildcard == this;
        }

        Node childOrCreate(final byte[] name) {
            if (java.util.Arrays.equals(name, WILDCARD)) {
                if (wildcard == null) {
                    wildcard = new Node();
                }
                return wildcard;
            }
            for (int i = 0; i < names.length; i++) {
                if (java.util.Arrays.equals(names[i], name)) {
                    return children[i];
                }
            }
            names = java.util.Arrays.copyOf(names, names.length + 1);
            children = java.util.Arrays.copyOf(children, children.length + 1);
            names[names.length - 1] = name;
            Node child = new Node();
            children[children.length - 1] = child;
            table = new KeyTable(names);
            return child;
        }

        /** The child for the key {@code src[off, off + len)}, or the wildcard child, or null. Allocation-free. */
        @Nullable
        Node child(final byte[] src, final int off, final int len) {
            int i = table.indexOf(src, off, len);
            return i < 0 ? wildcard : children[i];
        }
    }

    /**
     * A {@code **.a.b} rule: matches when the last keys of the path are {@code a.b}.
     */
    static final class Suffix {
        final byte[][] segments;
        final byte action;

        Suffix(final byte[][] segments, final byte action) {
            this.segments = segments;
            this.action = action;
        }

        boolean sameSegments(final byte[][] other) {
            return java.util.Arrays.deepEquals(segments, other);
        }
    }
}

package io.github.mongoredact.internal.walk;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.rules.CompiledPolicy;

import java.util.Arrays;

/**
 * A shape {@link ShapeReplay} remembers: the walk's output (the template), the source's element types in order, where each
 * key lies in the template, and which values were kept (copied into the template), in arrays of the size the shape needs.
 * Reused when another shape takes its place. Not thread-safe: one replay's.
 */
final class ReplayShape {
    @Nullable
    CompiledPolicy policy;
    @Nullable
    CompiledPolicy.RuleSet rules;
    byte[] types;
    byte[] subtypes;
    boolean[] hole;
    /** Whether each node is an element the policy dropped: its key is then in {@link #droppedKeys}, not in the template. */
    boolean[] dropped;
    byte[] droppedKeys;
    int droppedKeysLength;
    int[] keyOffsets;
    int[] keyLengths;
    /** Where each kept value lies in the template, and its length, by node. */
    int[] keptOuts;
    int[] keptLengths;
    int[] holeNodes;
    /** The nodes of the kept values the fingerprint mixed in. */
    int[] hashedNodes;
    /** Whether the walk computed the fingerprint: only then does the shape give one. */
    boolean fingerprinted;
    long fingerprint;
    byte[] template = new byte[0];
    /** The nodes of the shape; 0 while none is remembered. */
    int nodes;
    int holes;
    int hashedValues;
    int collectionNode = -1;
    long valuesRedacted;
    /** Replays since the shape was recorded, halved at each recording in its set. */
    int hits;

    ReplayShape(final int nodes, final int holes) {
        this.types = new byte[nodes];
        this.subtypes = new byte[nodes];
        this.hole = new boolean[nodes];
        this.dropped = new boolean[nodes];
        this.droppedKeys = new byte[nodes == 0 ? 0 : ShapeReplay.MAX_SOURCE_BYTES];
        this.keyOffsets = new int[nodes];
        this.keyLengths = new int[nodes];
        this.keptOuts = new int[nodes];
        this.keptLengths = new int[nodes];
        this.holeNodes = new int[holes];
        this.hashedNodes = new int[holes];
    }

    /** Takes the shape a recording made, in arrays of its size, for these rules; its replays count from 0. */
    void take(final ReplayShape recorded, final CompiledPolicy policy, final CompiledPolicy.RuleSet rules) {
        int n = recorded.nodes;
        this.types = Arrays.copyOf(recorded.types, n);
        this.subtypes = Arrays.copyOf(recorded.subtypes, n);
        this.hole = Arrays.copyOf(recorded.hole, n);
        this.dropped = Arrays.copyOf(recorded.dropped, n);
        this.droppedKeys = Arrays.copyOf(recorded.droppedKeys, recorded.droppedKeysLength);
        this.droppedKeysLength = recorded.droppedKeysLength;
        this.keyOffsets = Arrays.copyOf(recorded.keyOffsets, n);
        this.keyLengths = Arrays.copyOf(recorded.keyLengths, n);
        this.keptOuts = Arrays.copyOf(recorded.keptOuts, n);
        this.keptLengths = Arrays.copyOf(recorded.keptLengths, n);
        this.holeNodes = Arrays.copyOf(recorded.holeNodes, recorded.holes);
        this.hashedNodes = Arrays.copyOf(recorded.hashedNodes, recorded.hashedValues);
        this.hashedValues = recorded.hashedValues;
        this.fingerprinted = recorded.fingerprinted;
        this.fingerprint = recorded.fingerprint;
        this.template = recorded.template;
        this.holes = recorded.holes;
        this.collectionNode = recorded.collectionNode;
        this.valuesRedacted = recorded.valuesRedacted;
        this.policy = policy;
        this.rules = rules;
        this.hits = 0;
        this.nodes = n;
    }
}

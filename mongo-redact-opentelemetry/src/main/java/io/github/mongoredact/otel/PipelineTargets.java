package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.OwnedDocument;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The collections an aggregation's pipeline reads or writes besides its own, read from the redacted copy of the command, in
 * the order the pipeline names them: {@code $lookup.from}, {@code $graphLookup.from}, {@code $unionWith} (or its
 * {@code coll}), {@code $out} (or its {@code coll}) and {@code $merge.into} (or its {@code coll}), a target given with its
 * {@code db} written {@code db.coll}; inside {@code $lookup} and {@code $unionWith} sub-pipelines and {@code $facet} too.
 * Deny by default: a name is taken only where the copy holds it as a string that is no placeholder (a string the policy wrote
 * in place of a value starts with {@code ?}; so does no name this reader takes), so that the summary tells nothing the copy
 * hides; a copy cut by a {@code maxDocumentBytes} cap gives none. Bounded: {@value #MAX_DEPTH} levels of sub-pipelines and
 * {@value #MAX_TARGETS} targets. Stateless.
 */
final class PipelineTargets {
    static final int MAX_DEPTH = 8;
    static final int MAX_TARGETS = 64;

    private PipelineTargets() {
    }

    /** @return the targets of an {@code aggregate}'s pipeline (duplicates kept), empty where the copy shows none */
    static List<String> of(final OwnedDocument copy) {
        List<String> targets = new ArrayList<>(4);
        if (copy.containsKey(ShownCount.TRUNCATED)) {
            return targets;
        }
        BsonValue pipeline = copy.get("pipeline");
        if (pipeline != null) {
            pipeline(pipeline, 0, targets);
        }
        return targets;
    }

    private static void pipeline(final BsonValue pipeline, final int depth, final List<String> targets) {
        if (!pipeline.isArray() || depth >= MAX_DEPTH) {
            return;
        }
        for (BsonValue stage : pipeline.asArray()) {
            if (targets.size() >= MAX_TARGETS) {
                return;
            }
            if (stage.isDocument() && stage.asDocument().size() == 1) {
                Map.Entry<String, BsonValue> only = stage.asDocument().entrySet().iterator().next();
                stage(only.getKey(), only.getValue(), depth, targets);
            }
        }
    }

    private static void stage(final String name, final BsonValue argument, final int depth, final List<String> targets) {
        switch (name) {
            case "$lookup":
            case "$graphLookup":
                add(argument.isDocument() ? argument.asDocument().get("from") : null, targets);
                if (argument.isDocument() && argument.asDocument().containsKey("pipeline")) {
                    pipeline(argument.asDocument().get("pipeline"), depth + 1, targets);
                }
                break;
            case "$unionWith":
                if (argument.isDocument()) {
                    add(argument.asDocument().get("coll"), targets);
                    BsonValue inner = argument.asDocument().get("pipeline");
                    if (inner != null) {
                        pipeline(inner, depth + 1, targets);
                    }
                } else {
                    add(argument, targets);
                }
                break;
            case "$out":
                add(argument, targets);
                break;
            case "$merge":
                add(argument.isDocument() ? argument.asDocument().get("into") : argument, targets);
                break;
            case "$facet":
                if (argument.isDocument()) {
                    for (BsonValue facet : argument.asDocument().values()) {
                        pipeline(facet, depth + 1, targets);
                    }
                }
                break;
            default:
                break;
        }
    }

    /** Adds a name given as a string, or as {@code {db, coll}} (written {@code db.coll}, or {@code coll} without a db). */
    private static void add(@Nullable final BsonValue target, final List<String> targets) {
        if (target == null) {
            return;
        }
        if (target.isDocument()) {
            BsonDocument named = target.asDocument();
            String coll = name(named.get("coll"));
            String db = name(named.get("db"));
            if (coll != null) {
                targets.add(db == null ? coll : db + "." + coll);
            }
            return;
        }
        String name = name(target);
        if (name != null) {
            targets.add(name);
        }
    }

    /** @return the string the copy holds, or null for another type, an empty string or a placeholder */
    @Nullable
    private static String name(@Nullable final BsonValue value) {
        if (value == null || !value.isString()) {
            return null;
        }
        String name = value.asString().getValue();
        return name.isEmpty() || name.charAt(0) == '?' ? null : name;
    }
}

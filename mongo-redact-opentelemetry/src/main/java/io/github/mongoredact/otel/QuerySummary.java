package io.github.mongoredact.otel;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.OwnedDocument;
import io.github.mongoredact.StartedCommand;

import java.util.List;

/**
 * The {@code db.query.summary} of a command span, in the form {@link SpanNaming} chooses. The driver specification's:
 * {@code {command} {database}.{collection}}, or {@code {command} {database}}. The semantic conventions':
 * {@code {command} {target...}}, the target being the collection (as {@code db.collection.name} holds it) or, where the
 * command names none, the database, then for an {@code aggregate} every other collection its pipeline names
 * ({@link PipelineTargets}, each once, in order), at most {@value #MAX_LENGTH} characters and never cut inside a name (a
 * target that does not fit is left out with all after it). Stateless.
 */
final class QuerySummary {
    /** The conventions' limit on the summary's length. */
    static final int MAX_LENGTH = 255;
    private static final String AGGREGATE = "aggregate";

    private QuerySummary() {
    }

    /**
     * @param collection the collection the span names, "" for none
     * @return the summary shared by every span of that kind
     */
    static String of(final SpanNaming naming, final String command, final String database, final String collection) {
        if (naming == SpanNaming.DRIVER_SPECIFICATION) {
            return command + " " + database + (collection.isEmpty() ? "" : "." + collection);
        }
        String target = collection.isEmpty() ? database : collection;
        return command.length() + 1 + target.length() <= MAX_LENGTH ? command + " " + target : command;
    }

    /**
     * @param kinds the summary of the command's kind ({@link #of})
     * @return the summary of this command where it differs from its kind's (an aggregation whose copy names other
     *         collections, in the conventions' form), else null
     */
    @Nullable
    static String ofCommand(final SpanNaming naming, final String kinds, final StartedCommand command) {
        if (naming != SpanNaming.SEMANTIC_CONVENTIONS || !AGGREGATE.equals(command.getCommandName())) {
            return null;
        }
        OwnedDocument copy = command.getCommandView();
        if (copy == null) {
            return null;
        }
        List<String> targets = PipelineTargets.of(copy);
        return targets.isEmpty() ? null : withTargets(kinds, command.getCollectionName(), targets);
    }

    /** @return the summary with each target not yet in it appended while the whole stays within the limit */
    static String withTargets(final String summary, @Nullable final String collection, final List<String> targets) {
        StringBuilder text = new StringBuilder(summary);
        for (int i = 0; i < targets.size(); i++) {
            String target = targets.get(i);
            if (target.equals(collection) || targets.subList(0, i).contains(target)) {
                continue;
            }
            if (text.length() + 1 + target.length() > MAX_LENGTH) {
                break;
            }
            text.append(' ').append(target);
        }
        return text.toString();
    }
}

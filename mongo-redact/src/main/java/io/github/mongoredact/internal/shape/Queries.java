package io.github.mongoredact.internal.shape;

/**
 * The {@code query} of count and distinct: parsed as a filter and written only when its representative is not empty (an
 * absent query, {@code {}} and a {@code $comment} alone write nothing). Stateless.
 */
final class Queries {
    private Queries() {
    }

    /**
     * Writes the command's {@code query} under {@code key}, if it has one that is not empty.
     *
     * @return where the representative query lies: {start, end}, or {-1, -1} when none is written
     */
    static int[] write(final ShapeParts parts, final byte[] key) {
        int[] bounds = {-1, -1};
        if (!parts.fields.has(CommandFields.QUERY)) {
            return bounds;
        }
        MatchNode query = parts.filters.parse(parts.fields.value(CommandFields.QUERY), 1, FilterParser.PREDICATE_TOP);
        if (query.isEmptyAnd()) {
            return bounds;
        }
        parts.out.key(key);
        bounds[0] = parts.out.openDocument();
        parts.filterWriter.write(query, parts.variables);
        parts.out.close();
        bounds[1] = parts.out.representativePosition();
        return bounds;
    }
}

package io.github.mongoredact.internal.event;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.BoundedPool;
import io.github.mongoredact.internal.bson.Workspace;
import io.github.mongoredact.internal.shape.QueryShape;
import io.github.mongoredact.internal.shape.QueryShaper;
import io.github.mongoredact.internal.walk.DocumentRedactor;

/**
 * The server's query shape of a started command, for the sinks that ask for it: computed from the command's bytes and from
 * its redacted copy, and given only where the two agree, so that it tells nothing the copy hides (a key the copy masks, a type
 * its placeholders hide, a string that only looks like a placeholder: each makes the two differ, and then there is none).
 *
 * <p>Thread-safe, with no state per thread: a {@link QueryShaper} (its buffers and SHA-256 digest) is borrowed for one call
 * from a pool shared by all threads and given back before it returns; it keeps no command's bytes.</p>
 */
final class QueryShapes {
    /** Shapers between calls, shared by all threads; borrowed only where a sink asks for a shape. */
    private static final BoundedPool<QueryShaper> SHAPERS = new BoundedPool<>(QueryShaper::new);

    private QueryShapes() {
    }

    /** @return whether the server shapes a command of that name: find, aggregate, count, distinct */
    static boolean isShaped(final String commandName) {
        switch (commandName) {
            case "find":
            case "aggregate":
            case "count":
            case "distinct":
                return true;
            default:
                return false;
        }
    }

    /**
     * @param redactor the borrowed redactor that made {@code copy}, its workspace still pointing at the command's source
     * @param copy the command's redacted copy
     * @return the shape of the command and of its copy, where they agree; else null
     */
    @Nullable
    static QueryShape of(final DocumentRedactor redactor, final byte[] copy) {
        if (!redactor.sourceIsWhole()) {
            return null;
        }
        Workspace workspace = redactor.workspace();
        return of(workspace.source(), workspace.sourceOff(), workspace.sourceEnd(), copy);
    }

    /**
     * @param src the command as the driver sent it, at {@code [off, end)}
     * @param copy the command's redacted copy
     * @return the shape of both, or null where either has none or they differ
     */
    @Nullable
    static QueryShape of(final byte[] src, final int off, final int end, final byte[] copy) {
        QueryShaper shaper = SHAPERS.borrow();
        try {
            QueryShape shape = shaper.shape(src, off, end);
            return shape != null && shaper.hasShapeRedacted(shape, copy, 0, copy.length) ? shape : null;
        } finally {
            SHAPERS.giveBack(shaper);
        }
    }
}

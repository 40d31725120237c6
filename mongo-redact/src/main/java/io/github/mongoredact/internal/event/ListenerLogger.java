package io.github.mongoredact.internal.event;

import io.github.mongoredact.internal.Guard;

/**
 * The logger of the pipeline's warnings, named after the API class whose instances warn ({@code RedactingCommandListener}), by
 * its name: the facade sits above this package and is not used by it.
 */
final class ListenerLogger {
    /** The listener's class name, which applications configure their logging by. */
    static final String NAME = "io.github.mongoredact.RedactingCommandListener";
    static final System.Logger LOGGER = Guard.logger(NAME);

    private ListenerLogger() {
    }
}

package io.github.mongoredact.internal.shape;

/**
 * A command whose shape the engine can not compute exactly (an operator or stage it does not reproduce, a value the server
 * would refuse, a redacted value whose type the copy can not tell): thrown inside the engine and turned into "no shape" by
 * {@link QueryShaper}, never seen by its callers. No stack trace is filled: a refusal is an answer, not a failure.
 */
final class Unshapeable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private Unshapeable(final String reason) {
        super(reason, null, false, false);
    }

    /** @return a refusal saying why */
    static Unshapeable because(final String reason) {
        return new Unshapeable(reason);
    }
}

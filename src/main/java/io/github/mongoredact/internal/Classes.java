package io.github.mongoredact.internal;

/** Whether an optional library's class is there, asked once by the class that needs it. Stateless. */
public final class Classes {
    private Classes() {
    }

    /** @return whether the class can be loaded by the loader of {@code from}, without initialising it */
    public static boolean present(final String className, final Class<?> from) {
        try {
            Class.forName(className, false, from.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}

package io.github.mongoredact.internal.failure;

import com.mongodb.MongoException;
import com.mongodb.MongoSocketException;
import com.mongodb.ServerAddress;
import com.mongodb.lang.Nullable;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;

/**
 * Rebuilds a failure of a type the library names nowhere (a driver type of a newer line such as 5.2's
 * {@code MongoOperationTimeoutException}, a socket exception subclass, a JDK exception) through its public constructors, given
 * only texts and causes that are already redacted: whatever such a constructor builds can hold nothing else.
 *
 * <p>Only types of packages whose constructors merely store what they are given are built this way ({@link #isTrusted}); a
 * rebuilt failure must have the original's exact class and, for a {@link MongoException}, its code, otherwise the caller uses
 * a stand-in. Stateless; runs on the failure path only.
 */
final class FailureReflection {
    private static final String[] TRUSTED = {"java.", "javax.", "org.bson.", "com.mongodb."};
    private static final String UNTRUSTED = "com.mongodb.internal.";

    private FailureReflection() {
    }

    /** @return whether the type is public, concrete and of a package whose constructors are trusted to only store */
    static boolean isTrusted(final Class<?> type) {
        int modifiers = type.getModifiers();
        if (!Modifier.isPublic(modifiers) || Modifier.isAbstract(modifiers) || type.getName().startsWith(UNTRUSTED)) {
            return false;
        }
        for (String prefix : TRUSTED) {
            if (type.getName().startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Builds a failure of the original's class from a redacted text and cause, trying in turn: for socket failures
     * {@code (String, ServerAddress, Throwable)} and {@code (String, ServerAddress)}, then {@code (String, Throwable)} and
     * {@code (String)}.
     *
     * @return the rebuilt failure, or null when the type has none of these constructors or rebuilds into something else
     */
    @Nullable
    static Throwable byText(final Throwable original, @Nullable final String text, @Nullable final Throwable cause) {
        Class<? extends Throwable> type = original.getClass();
        if (!isTrusted(type)) {
            return null;
        }
        // each shape in turn, until one rebuilds the same kind: a constructor may set another code (5.x's
        // MongoTimeoutException(String, Throwable) gives -4 where (String) gives -3)
        if (original instanceof MongoSocketException) {
            ServerAddress address = ((MongoSocketException) original).getServerAddress();
            Throwable rebuilt = construct(type, new Class<?>[]{String.class, ServerAddress.class, Throwable.class}, text,
                    address, cause);
            if (!sameKind(original, rebuilt)) {
                rebuilt = construct(type, new Class<?>[]{String.class, ServerAddress.class}, text, address);
            }
            if (sameKind(original, rebuilt)) {
                return rebuilt;
            }
        }
        Throwable rebuilt = construct(type, new Class<?>[]{String.class, Throwable.class}, text, cause);
        if (!sameKind(original, rebuilt)) {
            rebuilt = construct(type, new Class<?>[]{String.class}, text);
        }
        return sameKind(original, rebuilt) ? rebuilt : null;
    }

    /** @return a new instance by the public constructor of that shape, or null when there is none or it throws */
    @Nullable
    static <T> T construct(final Class<T> type, final Class<?>[] shape, final Object... arguments) {
        Constructor<T> constructor;
        try {
            constructor = type.getConstructor(shape);
        } catch (NoSuchMethodException | SecurityException e) {
            return null;
        }
        try {
            return constructor.newInstance(arguments);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // refused its arguments, or not accessible from here: the caller stands in for it
            return null;
        }
    }

    /** @return whether the rebuilt failure has the original's class and, for driver failures, code */
    static boolean sameKind(final Throwable original, @Nullable final Throwable rebuilt) {
        if (rebuilt == null || rebuilt.getClass() != original.getClass()) {
            return false;
        }
        return !(original instanceof MongoException)
                || ((MongoException) original).getCode() == ((MongoException) rebuilt).getCode();
    }
}

package io.github.mongoredact.internal;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collection;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The failure rebuilding run unchanged against the newest driver line the machine holds (5.14.0, from the local Maven
 * repository), in a class loader of its own: the library's main classes, compiled against 4.11, with that driver's jars.
 * Covers the types and constructors that exist on 5.x only or differ there ({@code MongoOperationTimeoutException}, labels
 * given to the exception instead of the write concern error, the 3-argument cursor-not-found constructor). Skipped only when
 * those jars are absent.
 */
class FailureOnNewestDriverTest {
    private static final String VERSION = "5.14.0";
    private static final String SECRET = "QZXSECRET";
    private static final String TEXT = "failed for { email: \"qzx.alice@example.com\" } '" + SECRET + "'";
    private static URLClassLoader loader;

    @BeforeAll
    static void loadNewestDriver() throws Exception {
        Path repository = Paths.get(System.getProperty("user.home"), ".m2", "repository", "org", "mongodb");
        Path core = repository.resolve(Paths.get("mongodb-driver-core", VERSION, "mongodb-driver-core-" + VERSION + ".jar"));
        Path bson = repository.resolve(Paths.get("bson", VERSION, "bson-" + VERSION + ".jar"));
        assumeTrue(Files.isRegularFile(core) && Files.isRegularFile(bson), "driver " + VERSION + " is not in ~/.m2");
        URL classes = FailureRebuilder.class.getProtectionDomain().getCodeSource().getLocation();
        loader = new URLClassLoader(new URL[]{classes, core.toUri().toURL(), bson.toUri().toURL()},
                ClassLoader.getPlatformClassLoader());
    }

    @AfterAll
    static void close() throws Exception {
        if (loader != null) {
            loader.close();
        }
    }

    private static Class<?> type(final String name) throws ClassNotFoundException {
        return Class.forName(name, true, loader);
    }

    /** A new instance by the public constructor of the named class whose parameters take these arguments. */
    private static Object create(final String className, final Object... arguments) throws Exception {
        for (Constructor<?> constructor : type(className).getConstructors()) {
            Class<?>[] parameters = constructor.getParameterTypes();
            if (parameters.length == arguments.length && accepts(parameters, arguments)) {
                return constructor.newInstance(arguments);
            }
        }
        throw new AssertionError("no constructor of " + className + " for " + List.of(arguments));
    }

    private static boolean accepts(final Class<?>[] parameters, final Object[] arguments) {
        for (int i = 0; i < parameters.length; i++) {
            Class<?> p = parameters[i];
            Object a = arguments[i];
            boolean ok = a == null ? !p.isPrimitive() : p.isInstance(a) || (p == int.class && a instanceof Integer)
                    || (p == long.class && a instanceof Long);
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Calls a public method through the nearest public class (results may be of anonymous classes). */
    private static Object call(final Object target, final String method) throws Exception {
        Class<?> type = target.getClass();
        while (!java.lang.reflect.Modifier.isPublic(type.getModifiers())) {
            type = type.getSuperclass();
        }
        return type.getMethod(method).invoke(target);
    }

    private static Object document(final String json) throws Exception {
        return type("org.bson.BsonDocument").getMethod("parse", String.class).invoke(null, json);
    }

    private static Object address() throws Exception {
        return create("com.mongodb.ServerAddress", "127.0.0.1", 27017);
    }

    private static Throwable redactByPolicy(final Throwable failure) throws Exception {
        Object policy = type("io.github.mongoredact.RedactionPolicy").getMethod("defaults").invoke(null);
        Method compiledOf = type("io.github.mongoredact.RedactionPolicy").getDeclaredMethod("compiledOf", policy.getClass());
        compiledOf.setAccessible(true);
        Constructor<?> constructor = type(FailureRedactor.class.getName()).getDeclaredConstructor(
                type(CompiledPolicy.class.getName()));
        constructor.setAccessible(true);
        Object redactor = constructor.newInstance(compiledOf.invoke(null, policy));
        Method redact = redactor.getClass().getDeclaredMethod("redact", Throwable.class, String.class);
        redact.setAccessible(true);
        return assertClean((Throwable) redact.invoke(redactor, failure, "find"));
    }

    private static Throwable assertClean(final Throwable redacted) throws Exception {
        StringWriter printed = new StringWriter();
        redacted.printStackTrace(new PrintWriter(printed));
        for (String secret : new String[]{SECRET, "qzx.alice@example.com"}) {
            assertFalse(printed.toString().contains(secret), printed::toString);
        }
        return redacted;
    }

    private static Object response(final int code, final String codeName) throws Exception {
        return document("{ok: 0, code: " + code + ", codeName: '" + codeName + "', errmsg: \"note '" + SECRET
                + "'\", errorLabels: ['RetryableWriteError'], keyValue: {email: 'qzx.alice@example.com'}}");
    }

    @Test
    void operationTimeoutKeepsTypeAndServerCause() throws Exception {
        Throwable cause = (Throwable) create("com.mongodb.MongoExecutionTimeoutException", 50, TEXT);
        Throwable original = (Throwable) create("com.mongodb.MongoOperationTimeoutException", TEXT, cause);
        Throwable redacted = redactByPolicy(original);
        assertEquals(original.getClass(), redacted.getClass());
        assertEquals(cause.getClass(), redacted.getCause().getClass());
        assertEquals(50, call(redacted.getCause(), "getCode"));
    }

    @Test
    void cursorNotFoundKeepsTypeAndCursorId() throws Exception {
        Throwable original = (Throwable) create("com.mongodb.MongoCursorNotFoundException", 99L, response(43,
                "CursorNotFound"), address());
        Throwable redacted = redactByPolicy(original);
        assertEquals(original.getClass(), redacted.getClass());
        assertEquals(99L, call(redacted, "getCursorId"));
        assertEquals(Set.of("RetryableWriteError"), call(redacted, "getErrorLabels"));
        assertFalse(call(redacted, "getResponse").toString().contains(SECRET));
    }

    @Test
    void writeFailuresKeepLabelsAndCountsNotIds() throws Exception {
        Object error = create("com.mongodb.bulk.WriteConcernError", 64, "WriteConcernFailed", TEXT, document("{}"));
        Object result = type("com.mongodb.WriteConcernResult").getMethod("acknowledged", int.class, boolean.class,
                type("org.bson.BsonValue")).invoke(null, 1, false, create("org.bson.BsonString", SECRET));
        Throwable concern = (Throwable) create("com.mongodb.MongoWriteConcernException", error, result, address(),
                (Collection<String>) Set.of("RetryableWriteError"));
        Throwable redacted = redactByPolicy(concern);
        assertEquals(concern.getClass(), redacted.getClass());
        assertEquals(Set.of("RetryableWriteError"), call(redacted, "getErrorLabels"));
        assertEquals("?string", call(call(call(redacted, "getWriteResult"), "getUpsertedId"), "getValue"));

        Object upsert = create("com.mongodb.bulk.BulkWriteUpsert", 3, create("org.bson.BsonString", SECRET));
        Object bulkResult = type("com.mongodb.bulk.BulkWriteResult").getMethod("acknowledged", int.class, int.class,
                int.class, Integer.class, List.class, List.class).invoke(null, 0, 1, 0, 1, List.of(upsert), List.of());
        Throwable bulk = (Throwable) create("com.mongodb.MongoBulkWriteException", bulkResult, List.of(), error, address(),
                Set.of("NoWritesPerformed"));
        Throwable redactedBulk = redactByPolicy(bulk);
        assertEquals(bulk.getClass(), redactedBulk.getClass());
        assertFalse(call(redactedBulk, "getWriteResult").toString().contains(SECRET));
        assertEquals(Set.of("NoWritesPerformed"), call(redactedBulk, "getErrorLabels"));
    }

    @Test
    void sensitiveFailureHoldsExactlyCodeCodeNameAndLabels() throws Exception {
        Throwable original = (Throwable) create("com.mongodb.MongoCommandException", response(18, "AuthenticationFailed"),
                address());
        Method redact = type(SpecRedaction.class.getName()).getDeclaredMethod("redactFailure", Throwable.class);
        redact.setAccessible(true);
        Throwable redacted = assertClean((Throwable) redact.invoke(null, original));
        assertEquals("{\"code\": 18, \"codeName\": \"AuthenticationFailed\", \"errorLabels\": [\"RetryableWriteError\"]}",
                call(call(redacted, "getResponse"), "toJson"));
    }
}

package io.github.mongoredact.jmh.alloc;

import com.google.monitoring.runtime.instrumentation.AllocationRecorder;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.jmh.report.ResultFiles;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Counts allocations per operation (allocs/op) for every benchmark and parameter set of a JMH result file, with Google's
 * java-allocation-instrumenter, which must be loaded as the agent:
 *
 * <pre>
 * java -javaagent:target/allocation-instrumenter.jar -cp target/benchmarks.jar \
 *     io.github.mongoredact.jmh.alloc.AllocationCount target/results.json target/allocs.json
 * </pre>
 *
 * <p>{@code -Dallocs.filter=REGEX} keeps the cases whose name and parameters match; {@code -Dallocs.detail=true} lists what
 * was allocated, by type.</p>
 *
 * <p>Each case is set up as JMH does (the {@code @Param} fields of the benchmark and of its {@code @State} arguments from the
 * result file, then the {@code @Setup} methods), warmed up, then run a number of times while every object and array created on
 * the measuring thread is counted. The agent counts at the bytecode level, before the JIT's escape analysis, so allocs/op is
 * what the code creates; B/op from JMH's {@code -prof gc} is what remains after the JIT. The output also records the size of
 * the owned document a benchmark returns (the command of a started event, the reply of a succeeded one), for the
 * "B/op at most the output size + 128" target.</p>
 *
 * <p>The {@code ...OnVirtualThread} cases are left out (listed as skipped, not written): their work runs on a thread of its
 * own, which this count, of the measuring thread only, would miss; their B/op from {@code -prof gc} counts every thread.</p>
 */
public final class AllocationCount {
    private static final String BLACKHOLE_PASSWORD =
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.";

    /** The suffix of the benchmarks that run their work on a fresh virtual thread: not counted. */
    static final String ON_VIRTUAL_THREAD = "OnVirtualThread";

    private static volatile Thread measured;
    private static long objects;
    private static long bytes;
    /** With {@code -Dallocs.detail=true}: what was allocated, by type, for each case. */
    private static final boolean DETAIL = Boolean.getBoolean("allocs.detail");
    private static final Map<String, long[]> DETAILS = new java.util.TreeMap<>();

    private AllocationCount() {
    }

    /**
     * @param args the JMH result file, the output file, and optionally a warm-up time in milliseconds (default 300)
     * @throws Exception when a case can not be run
     */
    public static void main(final String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: AllocationCount <jmh-result.json> <allocs-out.json> [warmupMillis]");
            System.exit(2);
        }
        long warmupMillis = args.length > 2 ? Long.parseLong(args[2]) : 300;
        AllocationRecorder.addSampler((count, desc, newObj, size) -> {
            if (Thread.currentThread() == measured) {
                objects++;
                bytes += size;
                if (DETAIL) {
                    long[] n = DETAILS.computeIfAbsent(desc + (count >= 0 ? "[]" : ""), k -> new long[2]);
                    n[0]++;
                    n[1] += size;
                }
            }
        });
        List<ResultFiles.Allocs> cases = cases(Paths.get(args[0]));
        for (ResultFiles.Allocs c : cases) {
            Result r = run(c.benchmark, c.params, warmupMillis);
            System.out.printf(Locale.ROOT, "%-70s %-40s %10.1f allocs/op %12.1f B/op (instrumented) output %d B%n",
                    c.benchmark, c.params, r.allocsPerOp, r.bytesPerOp, r.outputBytes);
            System.out.print(r.detail);
            c.allocsPerOp = round(r.allocsPerOp, 3);
            c.instrumentedBytesPerOp = round(r.bytesPerOp, 1);
            c.outputBytes = r.outputBytes;
            c.ops = r.ops;
        }
        ResultFiles.write(Paths.get(args[1]), cases, 1);
    }

    private static double round(final double value, final int decimals) {
        return Double.parseDouble(String.format(Locale.ROOT, "%." + decimals + "f", value));
    }

    /** The distinct (benchmark, params) pairs of a JMH result file, in its order, with no figures yet. */
    static List<ResultFiles.Allocs> cases(final Path jmhResult) throws IOException {
        Pattern filter = Pattern.compile(System.getProperty("allocs.filter", ""));
        Set<String> seen = new LinkedHashSet<>();
        List<ResultFiles.Allocs> cases = new ArrayList<>();
        for (ResultFiles.Jmh r : ResultFiles.readJmh(jmhResult)) {
            if (r.benchmark.endsWith(ON_VIRTUAL_THREAD)) {
                if (seen.add(r.benchmark + r.params)) {
                    System.out.println("skipped " + r.benchmark + (r.params == null ? "" : " " + r.params)
                            + ": runs on a virtual thread of its own,"
                            + " which allocs/op (the measuring thread's) does not count");
                }
                continue;
            }
            ResultFiles.Allocs c = new ResultFiles.Allocs();
            c.benchmark = r.benchmark;
            if (r.params != null) {
                c.params.putAll(r.params);
            }
            String key = c.benchmark + c.params;
            if (filter.matcher(key).find() && seen.add(key)) {
                cases.add(c);
            }
        }
        return cases;
    }

    static final class Result {
        double allocsPerOp;
        double bytesPerOp;
        long outputBytes = -1;
        long ops;
        String detail = "";
    }

    static Result run(final String benchmark, final Map<String, String> params, final long warmupMillis) throws Exception {
        int dot = benchmark.lastIndexOf('.');
        Class<?> type = Class.forName(benchmark.substring(0, dot));
        Method method = null;
        for (Method m : type.getMethods()) {
            if (m.getName().equals(benchmark.substring(dot + 1)) && m.isAnnotationPresent(org.openjdk.jmh.annotations.Benchmark.class)) {
                method = m;
            }
        }
        if (method == null) {
            throw new IllegalArgumentException("no @Benchmark method " + benchmark);
        }
        List<Object> states = new ArrayList<>();
        Object instance = newState(type, params, states);
        Object[] args = new Object[method.getParameterCount()];
        for (int i = 0; i < args.length; i++) {
            Class<?> p = method.getParameterTypes()[i];
            args[i] = p == Blackhole.class ? new Blackhole(BLACKHOLE_PASSWORD) : newState(p, params, states);
        }
        // the benchmark's own state was created first and may take the others in its @Setup: set them up first, as JMH does
        List<Object> order = new ArrayList<>(states);
        java.util.Collections.reverse(order);
        for (Object state : order) {
            invokeAll(state, Setup.class, Level.Trial, states);
        }
        for (Object state : order) {
            invokeAll(state, Setup.class, Level.Iteration, states);
        }
        Result result = new Result();
        try {
            long start = System.nanoTime();
            long warmupNanos = warmupMillis * 1_000_000L;
            int warm = 0;
            Object last = null;
            while (warm < 20 || (System.nanoTime() - start < warmupNanos && warm < 20_000)) {
                last = method.invoke(instance, args);
                warm++;
            }
            long perOp = Math.max(1, (System.nanoTime() - start) / warm);
            long ops = Math.max(10, Math.min(5_000, 100_000_000L / perOp));
            result.outputBytes = outputBytes(last);
            // three rounds; the least is the steady state (a one-off, such as a class loaded late, only inflates a round)
            result.allocsPerOp = Double.MAX_VALUE;
            for (int round = 0; round < 3; round++) {
                DETAILS.clear();
                objects = 0;
                bytes = 0;
                measured = Thread.currentThread();
                for (long i = 0; i < ops; i++) {
                    last = method.invoke(instance, args);
                }
                measured = null;
                double allocsPerOp = (double) objects / ops;
                if (allocsPerOp < result.allocsPerOp) {
                    result.allocsPerOp = allocsPerOp;
                    result.bytesPerOp = (double) bytes / ops;
                    result.ops = ops;
                    result.detail = DETAIL ? detail(ops) : "";
                }
            }
        } finally {
            measured = null;
            for (Object state : states) {
                invokeAll(state, TearDown.class, Level.Iteration, states);
            }
            for (Object state : states) {
                invokeAll(state, TearDown.class, Level.Trial, states);
            }
        }
        return result;
    }

    private static String detail(final long ops) {
        StringBuilder detail = new StringBuilder();
        for (Map.Entry<String, long[]> e : DETAILS.entrySet()) {
            if (!e.getKey().startsWith("com/google/monitoring/")) {
                detail.append(String.format(Locale.ROOT, "    %-60s %10.2f /op %12.1f B/op%n", e.getKey(),
                        (double) e.getValue()[0] / ops, (double) e.getValue()[1] / ops));
            }
        }
        return detail.toString();
    }

    /** The size of the owned document a benchmark returned, or -1. */
    static long outputBytes(final Object returned) {
        BsonDocument document = null;
        if (returned instanceof CommandStartedEvent) {
            document = ((CommandStartedEvent) returned).getCommand();
        } else if (returned instanceof CommandSucceededEvent) {
            document = ((CommandSucceededEvent) returned).getResponse();
        } else if (returned instanceof BsonDocument) {
            document = (BsonDocument) returned;
        } else if (returned instanceof String) {
            return ((String) returned).length();
        }
        if (document instanceof RawBsonDocument) {
            return ((RawBsonDocument) document).getByteBuffer().remaining();
        }
        return -1;
    }

    private static Object newState(final Class<?> type, final Map<String, String> params, final List<Object> states)
            throws Exception {
        for (Object state : states) {
            if (state.getClass() == type) {
                return state;
            }
        }
        java.lang.reflect.Constructor<?> constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        Object state = constructor.newInstance();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.isAnnotationPresent(Param.class) && !Modifier.isStatic(f.getModifiers())) {
                    String value = params.get(f.getName());
                    if (value == null) {
                        throw new IllegalArgumentException("no value for @Param " + f.getName() + " of " + type.getName());
                    }
                    f.setAccessible(true);
                    f.set(state, convert(value, f.getType()));
                }
            }
        }
        states.add(state);
        return state;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object convert(final String value, final Class<?> type) {
        if (type == String.class) {
            return value;
        } else if (type == int.class || type == Integer.class) {
            return Integer.valueOf(value);
        } else if (type == long.class || type == Long.class) {
            return Long.valueOf(value);
        } else if (type == boolean.class || type == Boolean.class) {
            return Boolean.valueOf(value);
        } else if (type.isEnum()) {
            return Enum.valueOf((Class) type, value);
        }
        throw new IllegalArgumentException("unsupported @Param type " + type);
    }

    /**
     * Calls the state's methods with the annotation at the level: superclass methods first, as JMH does; a method that takes
     * other states gets them from {@code states}.
     */
    private static void invokeAll(final Object state, final Class<? extends java.lang.annotation.Annotation> annotation,
                                  final Level level, final List<Object> states) throws Exception {
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> c = state.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            hierarchy.add(0, c);
        }
        for (Class<?> c : hierarchy) {
            for (Method m : c.getDeclaredMethods()) {
                Level l = null;
                if (annotation == Setup.class && m.isAnnotationPresent(Setup.class)) {
                    l = m.getAnnotation(Setup.class).value();
                } else if (annotation == TearDown.class && m.isAnnotationPresent(TearDown.class)) {
                    l = m.getAnnotation(TearDown.class).value();
                }
                if (l == level) {
                    m.setAccessible(true);
                    m.invoke(state, stateArguments(m, states));
                }
            }
        }
    }

    private static Object[] stateArguments(final Method method, final List<Object> states) {
        Object[] args = new Object[method.getParameterCount()];
        for (int i = 0; i < args.length; i++) {
            for (Object state : states) {
                if (method.getParameterTypes()[i] == state.getClass()) {
                    args[i] = state;
                }
            }
            if (args[i] == null) {
                throw new IllegalArgumentException("no state of type " + method.getParameterTypes()[i].getName() + " for "
                        + method);
            }
        }
        return args;
    }
}

package io.github.mongoredact.jmh.roundtrip;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.result.InsertManyResult;
import com.mongodb.client.result.InsertOneResult;
import com.mongodb.event.CommandListener;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.jmh.support.EmbeddedDeployment;
import io.github.mongoredact.jmh.support.MixCommands;
import io.github.mongoredact.jmh.support.TimedListener;
import io.github.mongoredact.jmh.support.VirtualThreadFactory;
import io.github.mongoredact.jmh.support.VirtualThreads;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * The real round trip: the sync driver against the embedded server (mongo-java-server, memory backend, on 127.0.0.1 and a free
 * port) over TCP, with the subject registered as the client's only command listener. Operations: {@code insertOne} of an
 * order, {@code findById} ({@code find(eq("_id", id)).first()} on 1000 seeded orders), {@code insertMany} of
 * {@value #INSERT_MANY} orders (the orders of {@link MixCommands#order}, about 350 bytes each); and {@code insertOne} and
 * {@code findById} each on a fresh virtual thread per operation ({@code insertOneOnVirtualThread},
 * {@code findByIdOnVirtualThread}: the same operation started on its own virtual thread and joined, as a server that gives
 * every request a virtual thread runs it; the driver calls the listener on that thread). Those two need a JVM of release 21
 * or later: below it their trial fails (their {@link VirtualThreadFactory}), and the scripts leave them out.
 *
 * <p>ns/op is the whole operation, client and in-process server (2 vCPUs: the server's thread competes with the client's);
 * B/op ({@code -prof gc}) counts every thread, the server's included. Compare a subject with {@link NoListenerBenchmark}: the
 * difference is what registering the subject costs, the driver's own event work included. The listener is wrapped in a
 * {@link TimedListener}, whose time, counted by {@link ListenerTime} ({@code listenerNanos / operations}), is the listener's
 * own work alone. Each subclass is one subject.</p>
 *
 * <p>The warm-up is long (10 x 2 s): at a few thousand operations a second, the driver's, the server's and the listener's
 * code is still being compiled after 5 s (ns/op fell from 1.36 ms to 0.38 ms over five 1-second iterations after a 5-second
 * warm-up on this VM).</p>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 10, time = 2, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 2, timeUnit = TimeUnit.SECONDS)
@State(Scope.Benchmark)
public abstract class RoundTripBenchmark {
    /** Orders per insertMany. */
    public static final int INSERT_MANY = 100;
    /** Orders in the collection the finds read. */
    public static final int SEEDED = 1000;

    private EmbeddedDeployment deployment;
    private MongoCollection<BsonDocument> orders;
    private MongoCollection<BsonDocument> inserts;
    private BsonValue[] ids;
    private TimedListener timed;
    private int next;

    /** @return the listener to register on the client, or null for none */
    @Nullable
    protected abstract CommandListener listener();

    /** Checks the subject did its job on the operations (called after the trial, before the client closes). */
    protected abstract void checkSubject();

    /** Starts the server and the client (with the subject, timed); seeds the orders. */
    @Setup
    public void setUp() {
        CommandListener listener = listener();
        timed = listener == null ? null : new TimedListener(listener);
        deployment = new EmbeddedDeployment(timed);
        orders = deployment.collection(MixCommands.COLLECTION);
        inserts = deployment.collection("inserts");
        List<BsonDocument> seed = new ArrayList<>(SEEDED);
        ids = new BsonValue[SEEDED];
        for (int i = 0; i < SEEDED; i++) {
            seed.add(MixCommands.order(i));
            ids[i] = seed.get(i).get("_id");
        }
        orders.insertMany(seed);
        next = SEEDED;
    }

    /** Empties the insert target, so that it does not grow across iterations. */
    @Setup(Level.Iteration)
    public void emptyInserts() {
        inserts.drop();
    }

    /** Checks the subject, then closes the client, then the server. */
    @TearDown
    public void tearDown() {
        try {
            checkSubject();
        } finally {
            deployment.close();
        }
    }

    /**
     * @param time the listener's time
     * @return the driver's result
     */
    @Benchmark
    public InsertOneResult insertOne(final ListenerTime time) {
        InsertOneResult result = inserts.insertOne(MixCommands.order(next++));
        time.add(timed);
        return result;
    }

    /**
     * @param time the listener's time
     * @return the order found
     */
    @Benchmark
    public BsonDocument findById(final ListenerTime time) {
        BsonDocument found = orders.find(Filters.eq("_id", ids[next++ % SEEDED])).first();
        time.add(timed);
        return found;
    }

    /**
     * {@link #insertOne} on a fresh virtual thread.
     *
     * @param time the listener's time
     * @param threads the virtual-thread factory
     * @return the driver's result
     * @throws Exception what the operation threw
     */
    @Benchmark
    public InsertOneResult insertOneOnVirtualThread(final ListenerTime time, final VirtualThreadFactory threads)
            throws Exception {
        InsertOneResult result = VirtualThreads.call(threads.factory, () -> inserts.insertOne(MixCommands.order(next++)));
        time.add(timed);
        return result;
    }

    /**
     * {@link #findById} on a fresh virtual thread.
     *
     * @param time the listener's time
     * @param threads the virtual-thread factory
     * @return the order found
     * @throws Exception what the operation threw
     */
    @Benchmark
    public BsonDocument findByIdOnVirtualThread(final ListenerTime time, final VirtualThreadFactory threads) throws Exception {
        BsonDocument found = VirtualThreads.call(threads.factory,
                () -> orders.find(Filters.eq("_id", ids[next++ % SEEDED])).first());
        time.add(timed);
        return found;
    }

    /**
     * @param time the listener's time
     * @return the driver's result
     */
    @Benchmark
    public InsertManyResult insertMany(final ListenerTime time) {
        List<BsonDocument> batch = new ArrayList<>(INSERT_MANY);
        for (int i = 0; i < INSERT_MANY; i++) {
            batch.add(MixCommands.order(next++));
        }
        InsertManyResult result = inserts.insertMany(batch);
        time.add(timed);
        return result;
    }

    /** Fails unless the finds found what was seeded: a broken round trip must not report cheap numbers. */
    protected final void checkRoundTrip() {
        check(orders.countDocuments() == SEEDED, "seeded orders: " + orders.countDocuments());
        check(orders.find(Filters.eq("_id", ids[SEEDED / 2])).first() != null, "order not found");
    }
}

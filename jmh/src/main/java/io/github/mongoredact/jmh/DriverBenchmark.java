package io.github.mongoredact.jmh;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.result.InsertManyResult;
import com.mongodb.event.CommandListener;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.jmh.support.EmbeddedDeployment;
import io.github.mongoredact.jmh.support.Inputs;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonObjectId;
import org.bson.BsonString;
import org.bson.conversions.Bson;
import org.bson.types.ObjectId;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import java.util.ArrayList;
import java.util.List;

/**
 * The case captured from the real driver: a sync client against the embedded server over TCP, with the subject registered as
 * the client's command listener, so it runs inside the driver's own callbacks on the driver's real
 * {@code ByteBufBsonDocument} (find) and plain-with-sequence (insert) commands, over buffers the driver then reuses.
 *
 * <p>Each subclass is one subject. The figures include the driver's and the in-process server's own work (B/op from
 * {@code -prof gc} counts every thread), so compare a subject with {@link DriverNoListenerBenchmark}: the difference is the
 * subject's cost.</p>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public abstract class DriverBenchmark {
    /** Documents per insertMany. */
    public static final int INSERT_DOCUMENTS = 10;
    private static final Bson FILTER = Filters.gte("age", 70);

    private EmbeddedDeployment deployment;
    private MongoCollection<BsonDocument> customers;
    private MongoCollection<BsonDocument> inserts;
    private int next;

    /**
     * @return the listener to register on the client, or null for none
     */
    @Nullable
    protected abstract CommandListener listener();

    /** Checks the subject saw the operations (called after the trial). */
    protected abstract void checkSubject();

    /** Starts the server and the client; seeds 100 customers. */
    @Setup
    public void setUp() {
        deployment = new EmbeddedDeployment(listener());
        customers = deployment.collection(Inputs.COLLECTION);
        inserts = deployment.collection("inserts");
        customers.drop();
        customers.insertMany(Inputs.documents(Inputs.DocSize.SMALL, 100));
    }

    /** Empties the insert target, so that it does not grow across iterations. */
    @Setup(Level.Iteration)
    public void emptyInserts() {
        inserts.drop();
    }

    /** Closes the client, then the server. */
    @TearDown
    public void tearDown() {
        try {
            checkSubject();
        } finally {
            deployment.close();
        }
    }

    /**
     * A find whose command is the driver's {@code ByteBufBsonDocument} and whose reply holds 17 customers.
     *
     * @return the customers found
     */
    @Benchmark
    public List<BsonDocument> driverFind() {
        return customers.find(FILTER).into(new ArrayList<>());
    }

    /**
     * An insertMany of {@value #INSERT_DOCUMENTS} small documents: a plain top level with a {@code documents} sequence.
     *
     * @return the driver's result
     */
    @Benchmark
    public InsertManyResult driverInsertMany() {
        List<BsonDocument> documents = new ArrayList<>(INSERT_DOCUMENTS);
        for (int i = 0; i < INSERT_DOCUMENTS; i++) {
            int n = next++;
            documents.add(new BsonDocument("_id", new BsonObjectId(new ObjectId()))
                    .append("name", new BsonString("Customer " + (n % 100_000)))
                    .append("age", new BsonInt32(20 + n % 60)));
        }
        return inserts.insertMany(documents);
    }
}

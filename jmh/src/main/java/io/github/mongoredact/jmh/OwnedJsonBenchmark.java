package io.github.mongoredact.jmh;

import com.mongodb.event.CommandStartedEvent;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.OwnedDocument;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.StartedCommand;
import io.github.mongoredact.internal.json.QueryTextCache;
import io.github.mongoredact.jmh.support.Inputs;
import io.github.mongoredact.jmh.support.MixCommands;
import org.bson.BsonDocument;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

import static io.github.mongoredact.jmh.support.Checks.check;

/**
 * The JSON text of a redacted copy, apart from the listener: what the log sink prints ({@link OwnedDocument#toJson} at the
 * log's default 1,000 characters, and whole) and what {@code db.query.text} records ({@link OwnedDocument#toQueryText} at
 * 32 KiB; {@link QueryTextCache} finding the text again, which reads the copy's top level). The copy is made once, in the
 * setup, by the listener under the policy. An owned copy of the types the direct path writes is written straight from its
 * bytes (the library's {@code RawJson}); one holding another type (a binary session id, a timestamp) goes through the
 * driver's writer after the direct path gave up.
 *
 * <p>For A/B runs of the JSON path: {@code -p input=insert1,insert100,insert1000,findById -p policy=defaults,specOnly}
 * (the defaults below keep the quick run short).</p>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class OwnedJsonBenchmark {
    /** The log's default maximum document length. */
    static final int LOG_MAX_LENGTH = 1000;

    /**
     * {@code insertN}: an insert of N small documents held as one buffer; else a command of the typical mix
     * ({@link MixCommands.Command}'s parameter name, {@code findById}...).
     */
    @Param({"insert100"})
    public String input;

    /** {@code defaults} or {@code specOnly}. */
    @Param({"defaults"})
    public String policy;

    private OwnedDocument view;
    private BsonDocument copy;
    private QueryTextCache texts;

    /** Makes the copy through the listener and a query-text cache that has its text. */
    @Setup
    public void setUp() {
        CommandStartedEvent event = input.startsWith("insert")
                ? Inputs.started("insert", Inputs.insert(Inputs.Shape.BYTEBUF, Inputs.DocSize.SMALL,
                        Integer.parseInt(input.substring("insert".length()))))
                : MixCommands.started(MixCommands.Command.of(input));
        StartedCommand[] started = new StartedCommand[1];
        CommandSink sink = new CommandSink() {
            @Override
            public void started(final StartedCommand command) {
                started[0] = command;
            }
        };
        RedactionPolicy redaction = "specOnly".equals(policy) ? RedactionPolicy.specOnly() : RedactionPolicy.defaults();
        RedactingCommandListener.builder().policy(redaction).addSink(sink).build().commandStarted(event);
        check(started[0] != null && started[0].getCommand() != null, "no copy of " + input);
        view = started[0].getCommandView();
        copy = started[0].getCommand();
        texts = new QueryTextCache(OursOpenTelemetryBenchmark.QUERY_TEXT_MAX_LENGTH);
        String text = texts.render(copy);
        check(text.equals(view.toQueryText(OursOpenTelemetryBenchmark.QUERY_TEXT_MAX_LENGTH)), "query text differs");
    }

    /** @return the log's text of the copy, cut at 1,000 characters */
    @Benchmark
    public String log() {
        return view.toJson(LOG_MAX_LENGTH);
    }

    /** @return the whole text of the copy */
    @Benchmark
    public String whole() {
        return view.toJson(0);
    }

    /** @return the copy's {@code db.query.text}, rendered */
    @Benchmark
    public String queryText() {
        return view.toQueryText(OursOpenTelemetryBenchmark.QUERY_TEXT_MAX_LENGTH);
    }

    /** @return the copy's {@code db.query.text} through the cache: found again where the copy is small enough */
    @Benchmark
    public String queryTextCached() {
        return texts.render(copy);
    }
}

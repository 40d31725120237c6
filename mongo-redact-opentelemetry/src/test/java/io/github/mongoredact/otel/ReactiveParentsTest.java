package io.github.mongoredact.otel;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RedactingCommandListener;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reactive driver runs commands on its own threads: with {@link TracingContextProvider} each of two concurrent requests
 * still gets its own parent, whether the caller's context is current at subscription or held in Reactor's context.
 */
class ReactiveParentsTest {

    @Test
    void twoConcurrentRequestsEachGetTheirOwnParent() throws InterruptedException {
        try (Spans spans = new Spans(); EmbeddedServer server = new EmbeddedServer()) {
            RedactingCommandListener listener = RedactingCommandListener.builder()
                    .addSink(OpenTelemetryCommandSink.builder(spans.openTelemetry).queryTextMaxLength(200).build()).build();
            try (MongoClient client = MongoClients.create(MongoClientSettings.builder()
                    .applyConnectionString(new ConnectionString(server.uri()))
                    .contextProvider(new TracingContextProvider())
                    .addCommandListener(listener).build())) {
                Tracer tracer = spans.openTelemetry.getTracer("app");
                Span a = tracer.spanBuilder("request-a").startSpan();
                Span b = tracer.spanBuilder("request-b").startSpan();
                MongoCollection<Document> orders = client.getDatabase("shop").getCollection("orders");
                // a: the caller's context is current on the thread that subscribes; b: it is in Reactor's context only
                Thread first = new Thread(() -> {
                    try (Scope ignored = a.makeCurrent()) {
                        for (int i = 0; i < 10; i++) {
                            Mono.from(orders.insertOne(new Document("request", "a").append("i", i))).block();
                        }
                    }
                });
                first.start();
                Flux.range(0, 10).concatMap(i -> Mono.from(orders.insertOne(new Document("request", "b").append("i", i))))
                        .contextWrite(context -> context.put(Context.class, Context.root().with(b)))
                        .subscribeOn(Schedulers.parallel()).then().block(Duration.ofSeconds(30));
                first.join(30_000);
                a.end();
                b.end();
            }
            List<SpanData> inserts = spans.named("insert");
            assertEquals(20, inserts.size());
            for (Span parent : new Span[]{spansOf(spans, "request-a"), spansOf(spans, "request-b")}) {
                String id = parent.getSpanContext().getSpanId();
                List<SpanData> children = inserts.stream().filter(span -> span.getParentSpanId().equals(id))
                        .collect(Collectors.toList());
                assertEquals(10, children.size(), "inserts under " + id);
                String text = Spans.text(children.get(0));
                assertTrue(children.stream().allMatch(span -> Spans.text(span).equals(text)), "one request's shape");
                assertEquals(parent.getSpanContext().getTraceId(), children.get(0).getTraceId());
            }
            assertTrue(inserts.stream().allMatch(span -> span.getAttributes()
                    .get(AttributeKey.stringKey("db.collection.name")).equals("orders")));
        }
    }

    private static Span spansOf(final Spans spans, final String name) {
        SpanData data = spans.finished().stream().filter(span -> span.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name));
        return Span.wrap(data.getSpanContext());
    }
}

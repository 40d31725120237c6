package io.github.mongoredact;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoWriteException;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Updates;
import com.mongodb.event.CommandListener;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;

import static io.github.mongoredact.DriverLineWorkloadTest.PLANTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The workload through the reactive-streams driver (and so the driver-core that Kotlin and Scala share), where the callbacks
 * run on the driver's own threads: exact copies under {@code specOnly()}, no planted value under {@code defaults()}.
 */
class ReactiveDriverLineWorkloadTest {

    @Test
    void specOnlyForwardsExactCopiesOnTheReactiveDriver() {
        KeepingListener kept = new KeepingListener();
        CloningListener reference = new CloningListener();
        RedactingCommandListener listener = RedactingCommandListener.builder()
                .policy(RedactionPolicy.specOnly())
                .addListener(kept)
                .build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            run(server, reference, listener);
        }
        assertTrue(reference.commands.size() >= 6, "commands: " + reference.commands.size());
        DriverLineWorkloadTest.assertExactCopies(reference, kept);
        assertEquals(0, listener.getCounters().getRedactionFailures());
    }

    @Test
    void defaultsLetNoPlantedValueOutOnTheReactiveDriver() {
        KeepingListener kept = new KeepingListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(kept).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            run(server, new CloningListener(), listener);
        }
        assertTrue(kept.started.size() >= 6, "commands: " + kept.started.size());
        kept.started.forEach(e -> assertFalse(e.getCommand().toJson().contains(PLANTED), e.getCommand().toJson()));
        kept.succeeded.forEach(e -> assertFalse(e.getResponse().toJson().contains(PLANTED), e.getResponse().toJson()));
        assertEquals(0, listener.getCounters().getRedactionFailures());
    }

    private static void run(final EmbeddedServer server, final CommandListener... listeners) {
        MongoClientSettings.Builder settings = MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(server.uri()));
        for (CommandListener listener : listeners) {
            settings.addCommandListener(listener);
        }
        try (MongoClient client = MongoClients.create(settings.build())) {
            MongoCollection<Document> customers = client.getDatabase("shop").getCollection("customers");
            Mono.from(customers.createIndex(Indexes.ascending("email"), new IndexOptions().unique(true))).block();
            List<Document> many = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                many.add(new Document("email", PLANTED + i + "@example.com").append("n", i));
            }
            Mono.from(customers.insertMany(many)).block();
            List<Document> found = Flux.from(customers.find(Filters.gte("n", 0)).batchSize(50)).collectList().block();
            assertEquals(150, found.size());
            Mono.from(customers.updateOne(Filters.eq("n", 1), Updates.set("note", PLANTED + "note"))).block();
            MongoWriteException duplicate = assertThrows(MongoWriteException.class, () -> Mono.from(customers.insertOne(
                    new Document("email", PLANTED + "2@example.com"))).block());
            assertEquals(11000, duplicate.getCode());
        }
    }
}

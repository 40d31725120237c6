package io.github.mongoredact.deny;

import com.mongodb.client.MongoClient;
import com.mongodb.client.model.Filters;
import io.github.mongoredact.EmbeddedServer;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.log.CommandLogSink;
import io.github.mongoredact.log.KeyValueLines;
import io.github.mongoredact.micrometer.MicrometerCommandSink;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static io.github.mongoredact.EmbeddedServer.tolerate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scan {@link DenyByDefaultTest} runs over the log's pairs and the meters' tags ({@link SinkOutputs}) can fail: a planted
 * value put there on purpose is found, by the pair or tag it is in. Through the real driver to the embedded server: a key that
 * is data (an e-mail address) and a collection name, both planted, under {@code specOnly()}, which keeps both, so the log's
 * {@code queryShape} and the meters' {@code collection} tag show them; the same workload under {@code defaults()}, whose copy
 * masks the key, gives no shape and so nothing in {@code queryShape}. And a line and a meter made by hand with a planted value
 * in {@code queryShapeHash} and in {@code query.shape.hash}, which the listener never writes there (hex digits only).
 */
class SinkOutputsTest {

    /** What the scan found, after a find on a planted key (kind "key") of a planted collection (kind "string"). */
    private static List<Leak> scanAfterFind(final RedactionPolicy policy, final Planted planted) {
        String collection = planted.text();
        String key = planted.dataKey();
        KeyValueLines logged = new KeyValueLines(name -> "driver." + name);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addSink(logged.sink())
                .addSink(MicrometerCommandSink.builder(registry).fingerprintTag(true).queryShapeHashTag(true).build()).build();
        try (EmbeddedServer server = new EmbeddedServer()) {
            MongoClient client = server.client(listener);
            tolerate(() -> client.getDatabase("shop").getCollection(collection).find(Filters.exists(key)).into(new ArrayList<>()));
        }
        LeakFinder finder = new LeakFinder(planted);
        SinkOutputs outputs = new SinkOutputs();
        outputs.scanLog(finder, logged);
        outputs.scanMeters(finder, registry);
        return finder.leaks();
    }

    private static Set<String> paths(final List<Leak> leaks, final String kind) {
        Set<String> paths = new TreeSet<>();
        for (Leak leak : leaks) {
            if (leak.kind.equals(kind)) {
                paths.add(leak.key());
            }
        }
        return paths;
    }

    @Test
    void findsAPlantedKeyInTheLogsQueryShapeAndAPlantedCollectionInTheMetersTags() {
        List<Leak> kept = scanAfterFind(RedactionPolicy.specOnly(), new Planted(7));
        assertTrue(paths(kept, "key").contains("driver.find log.queryShape"), "the shape shows the key specOnly keeps: " + kept);
        assertTrue(paths(kept, "string").contains("meters tag.collection"), kept.toString());
        List<Leak> masked = scanAfterFind(RedactionPolicy.defaults(), new Planted(7));
        assertEquals(Set.of(), paths(masked, "key"), "the copy masks the key: no shape, no key anywhere: " + masked);
        assertTrue(paths(masked, "string").contains("meters tag.collection"), "defaults() keeps the collection name: " + masked);
    }

    @Test
    void findsAPlantedValueInTheHashPairAndTagWhereTheListenerNeverPutsOne() {
        Planted planted = new Planted(8);
        KeyValueLines logged = new KeyValueLines(name -> "by-hand");
        logged.log(CommandLogSink.Level.DEBUG, "Command \"find\" started", List.of("commandName", "find", "queryShapeHash",
                planted.text()), null);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Counter.builder(MicrometerCommandSink.COMMANDS).tag(MicrometerCommandSink.QUERY_SHAPE_HASH_TAG, planted.text())
                .register(registry);
        LeakFinder finder = new LeakFinder(planted);
        SinkOutputs outputs = new SinkOutputs();
        outputs.scanLog(finder, logged);
        outputs.scanMeters(finder, registry);
        Set<String> paths = new TreeSet<>();
        finder.leaks().forEach(leak -> paths.add(leak.key()));
        assertEquals(Set.of("by-hand log.queryShapeHash", "meters tag.query.shape.hash"), paths);
    }
}

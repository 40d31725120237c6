package io.github.mongoredact.jmh.support;

import com.mongodb.event.CommandStartedEvent;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MixCommandsTest {

    @Test
    void everyCommandCarriesWhatTheDriverAppendsForAReplicaSetInItsOrder() {
        for (MixCommands.Command command : MixCommands.Command.values()) {
            BsonDocument sent = MixCommands.started(command).getCommand();
            List<String> keys = new ArrayList<>(sent.keySet());
            int db = keys.indexOf("$db");
            assertTrue(db > 0, command + ": " + keys);
            assertEquals(List.of("$db", "$clusterTime", "lsid"), keys.subList(db, db + 3), command.param());
            assertTrue(sent.getDocument("$clusterTime").getDocument("signature").containsKey("hash"), command.param());
            assertEquals(4, sent.getDocument("lsid").getBinary("id").getType(), command.param());
            boolean secondary = command == MixCommands.Command.FIND_INDEXED || command == MixCommands.Command.AGGREGATE;
            assertEquals(secondary, sent.containsKey("$readPreference"), command.param());
            boolean write = command == MixCommands.Command.UPDATE_ONE || command == MixCommands.Command.INSERT_ONE;
            assertEquals(write, sent.containsKey("txnNumber"), command.param());
        }
    }

    @Test
    void writesHaveTheirSequenceAfterTheDriversFieldsAndRepliesAreHeapRawDocuments() {
        CommandStartedEvent update = MixCommands.started(MixCommands.Command.UPDATE_ONE);
        assertEquals("update", update.getCommandName());
        List<String> keys = new ArrayList<>(update.getCommand().keySet());
        assertEquals("updates", keys.get(keys.size() - 1));
        BsonDocument statement = update.getCommand().getArray("updates").get(0).asDocument();
        assertEquals(List.of("q", "u"), new ArrayList<>(statement.keySet()));
        assertFalse(statement.containsKey("multi"), "the driver writes multi only when true");
        assertEquals(MixCommands.order(42), MixCommands.started(MixCommands.Command.INSERT_ONE).getCommand()
                .getArray("documents").get(0));
        RawBsonDocument getMore = (RawBsonDocument) MixCommands.succeeded(MixCommands.Command.GET_MORE).getResponse();
        assertEquals(MixCommands.GET_MORE_BATCH, getMore.getDocument("cursor").getArray("nextBatch").size());
        assertTrue(getMore.containsKey("operationTime") && getMore.containsKey("$clusterTime"));
        int order = DriverDocuments.bytesOf(MixCommands.order(7)).length;
        assertTrue(order > 300 && order < 400, "order=" + order);
    }
}

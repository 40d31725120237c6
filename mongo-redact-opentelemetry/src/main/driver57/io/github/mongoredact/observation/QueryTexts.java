package io.github.mongoredact.observation;

import com.mongodb.connection.ConnectionId;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.OwnedDocument;
import io.github.mongoredact.StartedCommand;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The parametrized texts, from the listener's redacted copies to the driver's command spans, by connection: the driver starts
 * a command's span before it calls the listeners, and a connection has one command in flight, so the text the sink leaves
 * for a connection in {@code started} is the one the span of that connection's command takes at its stop. Bounded: one text
 * per connection in flight; past {@link #MAX_CONNECTIONS} entries (texts left by connections whose spans never stopped) the
 * table is cleared and the clearing counted. Thread-safe.
 */
final class QueryTexts implements CommandSink {
    static final int MAX_CONNECTIONS = 4096;

    private final int maxLength;
    private final ConcurrentHashMap<Long, String> byConnection = new ConcurrentHashMap<>();
    final LongAdder cleared = new LongAdder();

    QueryTexts(final int maxLength) {
        this.maxLength = maxLength;
    }

    @Override
    public boolean needsDocuments() {
        return maxLength > 0;
    }

    /** @return false: the texts are rendered from started commands; replies are not read */
    @Override
    public boolean needsReplyDocuments() {
        return false;
    }

    @Override
    public boolean needsFingerprint() {
        return false;
    }

    @Override
    public boolean needsCommandSize() {
        return false;
    }

    @Override
    public void started(final StartedCommand command) {
        OwnedDocument copy = command.getCommandView();
        if (maxLength == 0 || copy == null || command.isRedactedBySpec() || command.isHello()) {
            return;
        }
        if (byConnection.size() >= MAX_CONNECTIONS) {
            byConnection.clear();
            cleared.increment();
        }
        byConnection.put(command.getDriverConnectionId(), copy.toQueryText(maxLength));
    }

    /** @return the text left for the connection's command, taken out of the table; null when there is none */
    @Nullable
    String take(@Nullable final ConnectionId connectionId) {
        // the driver's own tracing comes with 5.7, whose connection ids are long
        return connectionId == null ? null : byConnection.remove(connectionId.getLocalValue());
    }

    int maxLength() {
        return maxLength;
    }

    int size() {
        return byConnection.size();
    }
}

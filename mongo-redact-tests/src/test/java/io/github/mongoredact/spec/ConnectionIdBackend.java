package io.github.mongoredact.spec;

import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The embedded server's memory backend, whose handshake reply also carries {@code connectionId}, a number per connection, as
 * a real server's does (the embedded server leaves it out), so that the driver knows the server's connection id.
 */
final class ConnectionIdBackend extends MemoryBackend {
    private final AtomicInteger next = new AtomicInteger(100);
    private final Map<Channel, Integer> ids = new ConcurrentHashMap<>();

    @Override
    public Document handleCommand(final Channel channel, final String database, final String command, final Document query) {
        Document reply = super.handleCommand(channel, database, command, query);
        if (reply != null && (command.equalsIgnoreCase("isMaster") || command.equals("hello"))) {
            reply.put("connectionId", ids.computeIfAbsent(channel, c -> next.incrementAndGet()));
        }
        return reply;
    }

    @Override
    public void handleClose(final Channel channel) {
        ids.remove(channel);
        super.handleClose(channel);
    }
}

package io.github.mongoredact.demo;

import com.mongodb.MongoClientSettings;
import io.github.mongoredact.CommandSink;
import io.github.mongoredact.CompletedCommand;
import io.github.mongoredact.StartedCommand;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.bson.BsonDocument;
import org.bson.json.JsonMode;
import org.bson.json.JsonWriterSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * Interim log and metrics sinks for the demo, in the shape of the project's {@code CommandLogSink} and
 * {@code MicrometerCommandSink} (same message text, meter names and tags), used until those land on this branch.
 */
final class InterimSinks {
    static final String COMMANDS = "mongodb.driver.commands";
    static final String COMMAND_SIZE = "mongodb.driver.commands.command.size";
    static final String REPLY_SIZE = "mongodb.driver.commands.reply.size";

    private InterimSinks() {
    }

    static CommandSink log(final String loggerName, final MongoClientSettings settings) {
        Logger logger = LoggerFactory.getLogger(loggerName);
        JsonWriterSettings json = JsonWriterSettings.builder().outputMode(JsonMode.RELAXED)
                .maxLength(settings.getLoggerSettings().getMaxDocumentLength()).build();
        return new CommandSink() {
            @Override
            public boolean needsDocuments() {
                return logger.isDebugEnabled();
            }

            @Override
            public void started(final StartedCommand command) {
                logger.debug("Command \"{}\" started on database \"{}\"{} Command: {}", command.getCommandName(),
                        command.getDatabaseName(), connection(command), render(command.getCommand(), json));
            }

            @Override
            public void completed(final CompletedCommand command) {
                StartedCommand started = command.getStarted();
                double ms = command.getElapsedNanos() / 1_000_000.0;
                if (command.isSucceeded()) {
                    logger.debug("Command \"{}\" succeeded on database \"{}\" in {} ms{} Command reply: {}",
                            started.getCommandName(), started.getDatabaseName(), ms, connection(started),
                            render(command.getReply(), json));
                } else {
                    logger.debug("Command \"{}\" failed on database \"{}\" in {} ms{}", started.getCommandName(),
                            started.getDatabaseName(), ms, connection(started), command.getFailure());
                }
            }
        };
    }

    private static String connection(final StartedCommand command) {
        return " using a connection with driver-generated ID "
                + command.getConnectionDescription().getConnectionId().getLocalValue() + " to "
                + command.getConnectionDescription().getServerAddress() + ". The request ID is " + command.getRequestId()
                + " and the operation ID is " + command.getOperationId() + ".";
    }

    private static String render(final BsonDocument document, final JsonWriterSettings json) {
        return document == null ? "{}" : document.toJson(json);
    }

    static CommandSink metrics(final MeterRegistry registry) {
        return new CommandSink() {
            @Override
            public boolean needsDocuments() {
                return false;
            }

            @Override
            public void completed(final CompletedCommand command) {
                StartedCommand started = command.getStarted();
                String collection = started.getCollectionName() == null ? "unknown" : started.getCollectionName();
                Timer.builder(COMMANDS).tag("command", started.getCommandName()).tag("collection", collection)
                        .tag("status", command.hasError() ? "FAILED" : "SUCCESS").register(registry)
                        .record(command.getElapsedNanos(), TimeUnit.NANOSECONDS);
                DistributionSummary.builder(COMMAND_SIZE).tag("command", started.getCommandName())
                        .tag("collection", collection).register(registry).record(Math.max(0, started.getCommandSize()));
                DistributionSummary.builder(REPLY_SIZE).tag("command", started.getCommandName())
                        .tag("collection", collection).register(registry).record(Math.max(0, command.getReplySize()));
            }
        };
    }
}

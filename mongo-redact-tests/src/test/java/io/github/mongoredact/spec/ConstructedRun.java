package io.github.mongoredact.spec;

import com.mongodb.connection.ConnectionDescription;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import com.mongodb.lang.Nullable;
import io.github.mongoredact.Events;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.bson.types.ObjectId;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs a spec test with constructed driver events: for each command the test expects (its expected events, or its expected
 * log messages), the started event with the command the operation sends, then its success or failure, built as the driver
 * builds them and fed into the client's {@code RedactingCommandListener}. The connection is the one the test's requirements
 * describe: no server connection id before 4.2, a service id behind a load balancer.
 */
final class ConstructedRun {
    private final SpecCase specCase;
    private final Entities entities;
    /** Texts of the constructed failures of sensitive commands, which no redacted failure may quote. */
    final List<String> redactedTexts = new ArrayList<>();
    private final ConnectionDescription connection;
    private int requestId = 100;
    int fed;

    ConstructedRun(final SpecCase specCase, final Entities entities) {
        this.specCase = specCase;
        this.entities = entities;
        BsonDocument requirement = specCase.simulatedRequirement();
        boolean pre42 = requirement.containsKey("maxServerVersion")
                && Feasibility.compare(requirement.getString("maxServerVersion").getValue(), "4.2") < 0;
        boolean loadBalanced = requirement.getArray("topologies", new BsonArray())
                .equals(new BsonArray(List.of(new BsonString("load-balanced"))));
        this.connection = Events.connection(pre42 ? null : 27L, loadBalanced ? new ObjectId("5f0000000000000000000027") : null);
    }

    /** One expected command: its started step and, when the expectations show it, its completion step. */
    private static final class Step {
        final String type;
        final BsonDocument fields;

        Step(final String type, final BsonDocument fields) {
            this.type = type;
            this.fields = fields;
        }

        String commandName() {
            return fields.getString("commandName").getValue();
        }
    }

    void run() {
        entities.create(specCase.createEntities());
        List<Step> steps = steps();
        List<BsonDocument> operations = new ArrayList<>();
        BsonDocument failPoint = null;
        List<BsonDocument> failPoints = new ArrayList<>();
        for (BsonValue value : specCase.operations()) {
            BsonDocument operation = value.asDocument();
            String name = operation.getString("name").getValue();
            if (name.equals("failPoint")) {
                failPoint = operation.getDocument("arguments").getDocument("failPoint").getDocument("data");
            } else if (name.equals("createEntities")) {
                entities.create(operation.getDocument("arguments").getArray("entities"));
            } else if (!operation.getString("object").getValue().equals("testRunner") && !name.equals("startTransaction")) {
                operations.add(operation);
                failPoints.add(failPoint);
                failPoint = null;
            }
        }
        int op = 0;
        long operationId = 40;
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            if (!step.type.equals("started")) {
                throw new IllegalStateException("expected a started command at step " + i + ", got " + step.type);
            }
            while (op < operations.size() && !sends(operations.get(op), step.commandName())) {
                op++;
                operationId++;
            }
            if (op == operations.size()) {
                throw new IllegalStateException("no operation sends " + step.commandName());
            }
            Step completion = i + 1 < steps.size() && !steps.get(i + 1).type.equals("started") ? steps.get(++i) : null;
            exchange(operations.get(op), failPoints.get(op), step, completion, operationId);
        }
    }

    private void exchange(final BsonDocument operation, @Nullable final BsonDocument failPoint, final Step started,
                          @Nullable final Step completion, final long operationId) {
        String objectId = operation.getString("object").getValue();
        Entities.Client client = objectId.equals("client") || !entities.databases.containsKey(entities.databaseIdOf(objectId))
                ? entities.clients.get("client") : entities.clientOf(objectId);
        String database = started.fields.isString("databaseName") ? started.fields.getString("databaseName").getValue()
                : entities.databaseName(entities.databaseIdOf(objectId));
        String name = started.commandName();
        BsonDocument command = command(operation, started, name, objectId).append("$db", new BsonString(database));
        int request = requestId++;
        client.listener.commandStarted(new CommandStartedEvent(null, operationId, request, connection, database, name,
                Shapes.driverShape(command)));
        fed++;
        boolean fails = completion != null ? completion.type.equals("failed") : operation.containsKey("expectError");
        if (fails) {
            Throwable failure;
            if ((failPoint != null && failPoint.getBoolean("closeConnection", org.bson.BsonBoolean.FALSE).getValue())
                    || operation.getDocument("expectError").getBoolean("isClientError", org.bson.BsonBoolean.FALSE).getValue()) {
                failure = Shapes.networkFailure();
            } else {
                com.mongodb.MongoCommandException exception = Shapes.serverFailure(name);
                redactedTexts.add(exception.getResponse().getString("errmsg").getValue());
                failure = exception;
            }
            client.listener.commandFailed(new CommandFailedEvent(null, operationId, request, connection, database, name,
                    2_000_000L, failure));
        } else {
            BsonDocument reply = reply(operation, command, completion, name, objectId, database);
            client.listener.commandSucceeded(new CommandSucceededEvent(null, operationId, request, connection, database, name,
                    new RawBsonDocument(reply, new BsonDocumentCodec()), 1_500_000L));
        }
        fed++;
    }

    private BsonDocument command(final BsonDocument operation, final Step started, final String name, final String objectId) {
        if (operation.getString("name").getValue().equals("runCommand")) {
            return operation.getDocument("arguments").getDocument("command").clone();
        }
        // a monitoring test spells out the command; a logging test only a pattern of its text
        BsonValue expected = started.fields.get("command");
        if (expected != null && expected.isDocument() && !expected.asDocument().getFirstKey().startsWith("$$")) {
            return Shapes.materialize(expected.asDocument());
        }
        String collection = entities.collections.containsKey(objectId) ? entities.collectionName(objectId) : "";
        BsonDocument options = entities.collectionOptions.getOrDefault(objectId, new BsonDocument());
        if (options.containsKey("writeConcern")) {
            return Shapes.command(name, operation, collection).append("writeConcern", options.getDocument("writeConcern"));
        }
        return Shapes.command(name, operation, collection);
    }

    private BsonDocument reply(final BsonDocument operation, final BsonDocument command, @Nullable final Step completion,
                               final String name, final String objectId, final String database) {
        BsonDocument serverReply = Shapes.serverReply(name, command);
        if (serverReply != null) {
            return serverReply;
        }
        // a monitoring test spells out the reply; a logging test may give it as a document pattern of its text
        BsonValue expected = completion == null ? null : completion.fields.get("reply");
        if (expected != null && expected.isDocument() && (!expected.asDocument().getFirstKey().startsWith("$$")
                || expected.asDocument().getFirstKey().equals("$$matchAsDocument"))) {
            return Shapes.materialize(expected.asDocument());
        }
        BsonDocument reply = new BsonDocument();
        boolean unacknowledged = entities.collectionOptions.containsKey(objectId)
                && entities.collectionOptions.get(objectId).containsKey("writeConcern");
        if (name.equals("find")) {
            reply.append("cursor", new BsonDocument("firstBatch", new BsonArray()).append("id", new BsonInt64(0))
                    .append("ns", new BsonString(database + "." + command.getString("find").getValue())));
        } else if (!unacknowledged && (name.equals("insert") || name.equals("update") || name.equals("delete"))) {
            reply.append("n", new BsonInt32(1));
        }
        return reply.append("ok", new BsonDouble(1));
    }

    private List<Step> steps() {
        List<Step> steps = new ArrayList<>();
        for (BsonValue value : specCase.expectEvents()) {
            for (BsonValue event : value.asDocument().getArray("events")) {
                String type = event.asDocument().getFirstKey();
                steps.add(new Step(type.replace("command", "").replace("Event", "").toLowerCase(java.util.Locale.ROOT),
                        event.asDocument().getDocument(type)));
            }
        }
        if (!steps.isEmpty()) {
            return steps;
        }
        for (BsonValue value : specCase.expectLogMessages()) {
            for (BsonValue message : value.asDocument().getArray("messages")) {
                BsonDocument data = message.asDocument().getDocument("data");
                String type = data.getString("message").getValue().replace("Command ", "");
                steps.add(new Step(type, data));
            }
        }
        return steps;
    }

    private static final Set<String> WRITES = new HashSet<>(Arrays.asList("insert", "update", "delete"));

    /** @return whether the operation sends a command of that name */
    private static boolean sends(final BsonDocument operation, final String commandName) {
        String name = operation.getString("name").getValue();
        switch (name) {
            case "runCommand":
                BsonDocument arguments = operation.getDocument("arguments");
                return commandName.equals(arguments.getString("commandName",
                        new BsonString(arguments.getDocument("command").getFirstKey())).getValue());
            case "insertOne":
            case "insertMany":
                return commandName.equals("insert");
            case "find":
                return commandName.equals("find") || commandName.equals("getMore");
            case "bulkWrite":
                return WRITES.contains(commandName);
            case "clientBulkWrite":
                return commandName.equals("bulkWrite");
            default:
                return name.equals(commandName) || name.startsWith(commandName);
        }
    }
}

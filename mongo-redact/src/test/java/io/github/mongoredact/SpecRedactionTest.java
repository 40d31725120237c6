package io.github.mongoredact;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoWriteException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteError;
import com.mongodb.event.CommandFailedEvent;
import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonArray;
import org.bson.BsonBinary;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command logging and monitoring spec's redaction, enforced by the listener whatever the policy: sensitive commands, their
 * replies and their failures, and the {@code hello} variants with {@code speculativeAuthenticate}.
 */
class SpecRedactionTest {
    static final String SECRET = "s3cr3t-pa55word";
    static final String[] SENSITIVE = {"authenticate", "saslStart", "saslContinue", "getnonce", "createUser", "updateUser",
            "copydbgetnonce", "copydbsaslstart", "copydb"};
    static final String[] HELLOS = {"hello", "isMaster", "ismaster"};

    static Stream<Arguments> sensitiveCommandsUnderEveryPolicy() {
        List<Arguments> cases = new ArrayList<>();
        for (String name : SENSITIVE) {
            for (String policy : new String[]{"specOnly", "defaults", "none"}) {
                cases.add(Arguments.of(name, policy));
            }
        }
        return cases.stream();
    }

    static RedactionPolicy policy(final String name) {
        switch (name) {
            case "specOnly":
                return RedactionPolicy.specOnly();
            case "none":
                return RedactionPolicy.specOnly();
            default:
                return RedactionPolicy.defaults();
        }
    }

    static BsonDocument sensitiveCommand(final String name) {
        return new BsonDocument(name, new BsonInt32(1))
                .append("user", new BsonString("alice")).append("pwd", new BsonString(SECRET))
                .append("payload", new BsonBinary(SECRET.getBytes(StandardCharsets.UTF_8)))
                .append("$db", new BsonString("admin"));
    }

    static MongoCommandException serverFailure() {
        BsonDocument response = new BsonDocument("ok", new BsonDouble(0))
                .append("errmsg", new BsonString("Authentication failed for alice with " + SECRET))
                .append("code", new BsonInt32(18)).append("codeName", new BsonString("AuthenticationFailed"))
                .append("errorLabels", new BsonArray(List.of(new BsonString("SystemOverloadedError"))))
                .append("payload", new BsonString(SECRET));
        return new MongoCommandException(response, new ServerAddress("127.0.0.1", 27017));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("sensitiveCommandsUnderEveryPolicy")
    void sensitiveCommandReplyAndFailureAreRedacted(final String name, final String policyName) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy(policyName)).addListener(last)
                .build();
        listener.commandStarted(DriverShapes.started(1, name, DriverShapes.byteBacked(sensitiveCommand(name),
                Backing.BYTE_BUF_HEAP_IN_MESSAGE)));
        BsonDocument forwardedCommand = last.started.getCommand();
        assertTrue(forwardedCommand.isEmpty(), forwardedCommand::toJson);
        assertEquals(name, last.started.getCommandName());
        assertEquals("shop", last.started.getDatabaseName());

        BsonDocument reply = new BsonDocument("conversationId", new BsonInt32(1))
                .append("payload", new BsonBinary(SECRET.getBytes(StandardCharsets.UTF_8))).append("ok", new BsonDouble(1));
        listener.commandSucceeded(DriverShapes.succeeded(1, name, DriverShapes.byteBacked(reply, Backing.RAW)));
        assertTrue(last.succeeded.getResponse().isEmpty(), () -> last.succeeded.getResponse().toJson());
        assertSame(forwardedCommand, last.succeeded.getResponse(), "one shared empty document");

        listener.commandFailed(DriverShapes.failed(2, name, serverFailure()));
        assertRedactedFailure(last.failed);
        assertEquals(0, listener.getCounters().getRedactionFailures());
        assertEquals(3, listener.getCounters().getEventsForwarded());
    }

    static void assertRedactedFailure(final CommandFailedEvent failed) {
        MongoCommandException e = assertInstanceOf(MongoCommandException.class, failed.getThrowable());
        assertEquals(18, e.getErrorCode());
        assertEquals("AuthenticationFailed", e.getErrorCodeName());
        assertEquals(Set.of("SystemOverloadedError"), e.getErrorLabels());
        // exactly these three, as the spec and the driver: no "ok", no "errmsg"
        assertEquals(Set.of("code", "codeName", "errorLabels"), e.getResponse().keySet(), () -> e.getResponse().toJson());
        assertFalse(e.getMessage().contains(SECRET), e.getMessage());
        assertFalse(e.getResponse().toJson().contains(SECRET));
        assertEquals(null, e.getCause());
    }

    @Test
    void sharedEmptyDocumentIsTheSameInstanceForEveryRedactedEvent() {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(last).build();
        listener.commandStarted(DriverShapes.started(1, "saslStart", sensitiveCommand("saslStart")));
        BsonDocument first = last.started.getCommand();
        listener.commandStarted(DriverShapes.started(2, "createUser", sensitiveCommand("createUser")));
        assertSame(first, last.started.getCommand());
        assertArrayEquals(new byte[]{5, 0, 0, 0, 0}, DriverShapes.ownedBytes(first));
    }

    @ParameterizedTest
    @ValueSource(strings = {"hello", "isMaster", "ismaster"})
    void helloWithSpeculativeAuthenticateIsRedactedBothWays(final String name) {
        for (String policyName : new String[]{"specOnly", "defaults"}) {
            LastEventListener last = new LastEventListener();
            RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy(policyName))
                    .addListener(last).build();
            BsonDocument hello = new BsonDocument(name, new BsonInt32(1))
                    .append("speculativeAuthenticate", new BsonDocument("saslStart", new BsonInt32(1))
                            .append("payload", new BsonString(SECRET)))
                    .append("$db", new BsonString("admin"));
            listener.commandStarted(DriverShapes.started(1, name, DriverShapes.byteBacked(hello, Backing.BYTE_BUF_HEAP)));
            assertTrue(last.started.getCommand().isEmpty(), policyName);
            BsonDocument reply = new BsonDocument("isWritablePrimary", new BsonDouble(1))
                    .append("speculativeAuthenticate", new BsonDocument("payload", new BsonString(SECRET)))
                    .append("ok", new BsonDouble(1));
            listener.commandSucceeded(DriverShapes.succeeded(1, name, DriverShapes.byteBacked(reply, Backing.RAW)));
            assertTrue(last.succeeded.getResponse().isEmpty(), policyName);
            // a second hello of the same kind that fails
            listener.commandStarted(DriverShapes.started(2, name, DriverShapes.byteBacked(hello, Backing.RAW)));
            listener.commandFailed(DriverShapes.failed(2, name, serverFailure()));
            assertRedactedFailure(last.failed);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hello", "isMaster", "ismaster"})
    void replyOfSpeculativeHelloIsRedactedEvenWithoutSpeculativeAuthenticateInTheReply(final String name) {
        // the spec decides by the command: its reply is redacted whatever it holds
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addListener(last).build();
        BsonDocument hello = new BsonDocument(name, new BsonInt32(1))
                .append("speculativeAuthenticate", new BsonDocument("db", new BsonString("admin")))
                .append("$db", new BsonString("admin"));
        listener.commandStarted(DriverShapes.started(7, name, DriverShapes.byteBacked(hello, Backing.BYTE_BUF_HEAP)));
        BsonDocument reply = new BsonDocument("isWritablePrimary", new BsonDouble(1))
                .append("me", new BsonString(SECRET)).append("ok", new BsonDouble(1));
        listener.commandSucceeded(DriverShapes.succeeded(7, name, DriverShapes.byteBacked(reply, Backing.RAW)));
        assertTrue(last.succeeded.getResponse().isEmpty(), () -> last.succeeded.getResponse().toJson());
    }

    @ParameterizedTest
    @ValueSource(strings = {"hello", "isMaster", "ismaster"})
    void helloWithoutSpeculativeAuthenticateIsNotRedacted(final String name) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addListener(last).build();
        BsonDocument hello = new BsonDocument(name, new BsonInt32(1)).append("helloOk", new BsonInt32(1))
                .append("$db", new BsonString("admin"));
        listener.commandStarted(DriverShapes.started(1, name, DriverShapes.byteBacked(hello, Backing.BYTE_BUF_HEAP)));
        assertArrayEquals(DriverShapes.encode(hello), DriverShapes.ownedBytes(last.started.getCommand()));
        BsonDocument reply = new BsonDocument("isWritablePrimary", new BsonDouble(1)).append("maxWireVersion", new BsonInt32(8))
                .append("ok", new BsonDouble(1));
        listener.commandSucceeded(DriverShapes.succeeded(1, name, DriverShapes.byteBacked(reply, Backing.RAW)));
        assertArrayEquals(DriverShapes.encode(reply), DriverShapes.ownedBytes(last.succeeded.getResponse()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"hello", "isMaster", "ismaster"})
    void failureOfHelloWithoutSpeculativeAuthenticateIsNotRedacted(final String name) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addListener(last).build();
        BsonDocument hello = new BsonDocument(name, new BsonInt32(1)).append("$db", new BsonString("admin"));
        listener.commandStarted(DriverShapes.started(9, name, DriverShapes.byteBacked(hello, Backing.BYTE_BUF_HEAP)));
        MongoCommandException failure = serverFailure();
        listener.commandFailed(DriverShapes.failed(9, name, failure));
        assertSame(failure, last.failed.getThrowable(), () -> last.failed.getThrowable().getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"SASLSTART", "createuser", "Authenticate", "copyDb", "GetNonce", "UpdateUser", "saslcontinue",
            "COPYDBSASLSTART", "CopyDbGetNonce"})
    void sensitiveNamesMatchIgnoringCase(final String name) {
        // beyond the driver, which matches exactly: a server that takes the name in any case must not get it logged
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addListener(last).build();
        listener.commandStarted(DriverShapes.started(1, name, DriverShapes.byteBacked(sensitiveCommand(name), Backing.RAW)));
        assertTrue(last.started.getCommand().isEmpty(), name);
        BsonDocument reply = new BsonDocument("payload", new BsonString(SECRET)).append("ok", new BsonDouble(1));
        listener.commandSucceeded(DriverShapes.succeeded(1, name, DriverShapes.byteBacked(reply, Backing.RAW)));
        assertTrue(last.succeeded.getResponse().isEmpty(), name);
        listener.commandFailed(DriverShapes.failed(2, name, serverFailure()));
        assertRedactedFailure(last.failed);
    }

    @Test
    void namesThatOnlyResembleSensitiveOnesAreNotRedacted() {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addListener(last).build();
        for (String name : new String[]{"authenticated", "saslStarts", "createUsers", "copydbX", "getnonce2"}) {
            BsonDocument command = sensitiveCommand(name);
            listener.commandStarted(DriverShapes.started(1, name, DriverShapes.byteBacked(command, Backing.RAW)));
            assertArrayEquals(DriverShapes.encode(command), DriverShapes.ownedBytes(last.started.getCommand()), name);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"HELLO", "IsMaster", "ISMASTER", "Hello"})
    void helloInAnyCaseWithSpeculativeAuthenticateIsRedacted(final String name) {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addListener(last).build();
        BsonDocument hello = new BsonDocument(name, new BsonInt32(1))
                .append("speculativeAuthenticate", new BsonDocument("payload", new BsonString(SECRET)))
                .append("$db", new BsonString("admin"));
        listener.commandStarted(DriverShapes.started(4, name, DriverShapes.byteBacked(hello, Backing.RAW)));
        assertTrue(last.started.getCommand().isEmpty());
        BsonDocument reply = new BsonDocument("me", new BsonString(SECRET)).append("ok", new BsonDouble(1));
        listener.commandSucceeded(DriverShapes.succeeded(4, name, DriverShapes.byteBacked(reply, Backing.RAW)));
        assertTrue(last.succeeded.getResponse().isEmpty());
    }

    @Test
    void sensitiveCommandsOtherFailuresAreRebuiltWithoutServerText() {
        LastEventListener last = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(RedactionPolicy.specOnly())
                .addListener(last).build();
        ServerAddress address = new ServerAddress("127.0.0.1", 27017);
        MongoSocketReadException socket = new MongoSocketReadException("read of '" + SECRET + "' failed", address,
                serverFailure());
        listener.commandFailed(DriverShapes.failed(5, "saslContinue", socket));
        MongoSocketReadException redactedSocket = assertInstanceOf(MongoSocketReadException.class,
                last.failed.getThrowable());
        assertEquals("read of '?' failed", redactedSocket.getMessage());
        assertEquals(address, redactedSocket.getServerAddress());
        MongoCommandException cause = assertInstanceOf(MongoCommandException.class, redactedSocket.getCause());
        assertEquals(Set.of("code", "codeName", "errorLabels"), cause.getResponse().keySet());

        MongoWriteException write = new MongoWriteException(new WriteError(11000, "dup " + SECRET,
                new BsonDocument("keyValue", new BsonString(SECRET))), address);
        listener.commandFailed(DriverShapes.failed(6, "createUser", write));
        MongoWriteException redactedWrite = assertInstanceOf(MongoWriteException.class, last.failed.getThrowable());
        assertEquals(11000, redactedWrite.getError().getCode());
        assertEquals("", redactedWrite.getError().getMessage());
        assertTrue(redactedWrite.getError().getDetails().isEmpty());
        assertFalse(redactedWrite.toString().contains(SECRET), redactedWrite::toString);
    }

    @Test
    void sensitiveCommandIsRedactedForSinksToo() {
        RecordingSink sink = new RecordingSink(true, true);
        List<StartedCommand> started = sink.started;
        List<CompletedCommand> completed = sink.completed;
        RedactingCommandListener listener = RedactingCommandListener.builder().addSink(sink).build();
        listener.commandStarted(DriverShapes.started(3, "saslContinue", DriverShapes.byteBacked(sensitiveCommand("saslContinue"),
                Backing.BYTE_BUF_HEAP)));
        listener.commandFailed(DriverShapes.failed(3, "saslContinue", serverFailure()));
        assertTrue(started.get(0).isRedactedBySpec());
        assertTrue(started.get(0).getCommand().isEmpty());
        assertTrue(started.get(0).toEvent().getCommand().isEmpty());
        assertTrue(completed.get(0).hasError());
        assertEquals(18, completed.get(0).getErrorCode());
        assertRedactedFailure(completed.get(0).toFailedEvent());
    }
}

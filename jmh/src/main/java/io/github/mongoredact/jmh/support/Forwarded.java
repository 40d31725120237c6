package io.github.mongoredact.jmh.support;

import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import io.github.mongoredact.RedactingCommandListener;
import io.github.mongoredact.RedactionPolicy;
import org.bson.BsonDocument;
import org.bson.ByteBuf;
import org.bson.RawBsonDocument;

import java.util.Arrays;
import java.util.Locale;

/**
 * What the library forwards for a started or succeeded event, as bytes: the reference the floor prototypes must reproduce
 * exactly.
 */
public final class Forwarded {
    private Forwarded() {
    }

    /**
     * @param policy {@code specOnly} or {@code defaults}
     * @return the policy
     */
    public static RedactionPolicy policy(final String policy) {
        switch (policy.toLowerCase(Locale.ROOT)) {
            case "speconly":
                return RedactionPolicy.specOnly();
            case "defaults":
                return RedactionPolicy.defaults();
            default:
                throw new IllegalArgumentException("policy=" + policy + " (specOnly or defaults)");
        }
    }

    /**
     * @param policy the policy
     * @param event a started event
     * @return the bytes of the command our listener forwards for it under the policy
     */
    public static byte[] started(final RedactionPolicy policy, final CommandStartedEvent event) {
        LastEventListener downstream = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(downstream).build();
        listener.commandStarted(event);
        Checks.noFailures(listener);
        return bytes(downstream.started.getCommand());
    }

    /**
     * @param policy the policy
     * @param event a succeeded event
     * @return the bytes of the reply our listener forwards for it under the policy
     */
    public static byte[] succeeded(final RedactionPolicy policy, final CommandSucceededEvent event) {
        LastEventListener downstream = new LastEventListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().policy(policy).addListener(downstream).build();
        listener.commandSucceeded(event);
        Checks.noFailures(listener);
        return bytes(downstream.succeeded.getResponse());
    }

    /**
     * @param document a forwarded document
     * @return its bytes
     */
    public static byte[] bytes(final BsonDocument document) {
        Checks.check(document instanceof RawBsonDocument, "forwarded " + document.getClass().getName());
        ByteBuf buf = ((RawBsonDocument) document).getByteBuffer();
        byte[] bytes = new byte[buf.remaining()];
        buf.get(bytes);
        return bytes;
    }

    /**
     * Fails unless a floor's output is byte for byte what the library forwards.
     *
     * @param subject the floor, for the message
     * @param expected the library's bytes
     * @param actual the floor's
     */
    public static void checkSame(final String subject, final byte[] expected, final byte[] actual) {
        if (!Arrays.equals(expected, actual)) {
            int at = Arrays.mismatch(expected, actual);
            throw new IllegalStateException(subject + " differs from the library's output: expected " + expected.length
                    + " bytes, got " + actual.length + ", first difference at index " + at);
        }
    }
}

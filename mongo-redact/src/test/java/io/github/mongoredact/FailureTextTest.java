package io.github.mongoredact;

import com.mongodb.MongoClientException;
import com.mongodb.MongoException;
import com.mongodb.MongoInternalException;
import com.mongodb.MongoSocketOpenException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ServerAddress;
import org.bson.BsonSerializationException;
import org.bson.codecs.configuration.CodecConfigurationException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Texts of failures that are not the server's, deny by default: the driver's own client exceptions keep only the words of
 * their message templates and the numbers that are time-outs, counts or ports; the message of any other throwable (an
 * application's, a codec's, the JDK's, anywhere in the cause chain) is withheld, its type kept. Checked with the exceptions an
 * application's codec throws, JDK exceptions in a cause chain, a corpus of random words and common values of application
 * data, planted in every position of messages shaped like the driver's.
 */
class FailureTextTest {
    private static final ServerAddress ADDRESS = new ServerAddress("127.0.0.1", 27017);
    /** Common values of application data: statuses, tiers, roles, colors, names, places, card brands. */
    static final String[] DATA_WORDS = {"Pending", "Active", "Inactive", "Open", "Closed", "Shipped", "Delivered",
            "Cancelled", "Canceled", "Paid", "Unpaid", "Approved", "Rejected", "Draft", "Published", "Archived", "Expired",
            "Verified", "Suspended", "Blocked", "Refunded", "Processing", "Completed", "Gold", "Silver", "Bronze", "Platinum",
            "Premium", "Basic", "Standard", "Admin", "Manager", "Customer", "Guest", "Member", "Owner", "Male", "Female", "Red",
            "Blue", "Green", "Black", "White", "Alice", "Bob", "Smith", "London", "Paris", "Berlin", "Tokyo", "Visa",
            "Mastercard", "Enabled", "Disabled", "Available", "Returned", "New"};

    /** An exception an application's codec throws. */
    static final class OrderStatusException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OrderStatusException(final String message) {
            super(message);
        }
    }

    private static Throwable forward(final Throwable failure) {
        KeepingListener kept = new KeepingListener();
        RedactingCommandListener listener = RedactingCommandListener.builder().addListener(kept).build();
        listener.commandFailed(DriverShapes.failed(3, "find", failure));
        assertEquals(0, listener.getCounters().getRedactionFailures());
        return kept.failed.get(0).getThrowable();
    }

    private static String everything(final Throwable failure) {
        StringWriter printed = new StringWriter();
        failure.printStackTrace(new PrintWriter(printed));
        StringBuilder text = new StringBuilder(printed.toString());
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append('\n').append(t.getMessage()).append('\n').append(t);
        }
        return text.toString();
    }

    @Test
    void driverTemplatesKeepTheirWordsTimeoutsCountsAndPorts() {
        assertEquals("Prematurely reached end of stream", forward(new MongoSocketReadException(
                "Prematurely reached end of stream", ADDRESS)).getMessage());
        assertEquals("Timeout while receiving message", forward(new MongoSocketReadTimeoutException(
                "Timeout while receiving message", ADDRESS, new SocketTimeoutException("Read timed out"))).getMessage());
        Throwable timeout = forward(new MongoTimeoutException("Timed out after 30000 ms while waiting for a server that"
                + " matches ReadPreferenceServerSelector{readPreference=primary}. Client view of cluster state is"
                + " {type=UNKNOWN, servers=[{address=db7.shop.internal:27017, type=UNKNOWN, state=CONNECTING,"
                + " exception={com.mongodb.MongoSocketOpenException: Exception opening socket}, caused by"
                + " {java.net.ConnectException: Connection refused}}]"));
        String message = timeout.getMessage();
        assertTrue(message.startsWith("Timed out after 30000 ms while waiting for a server that matches"), message);
        assertTrue(message.contains("{type=UNKNOWN, servers=[{address=?:27017, type=UNKNOWN, state=CONNECTING,"), message);
        assertTrue(message.contains("com.mongodb.MongoSocketOpenException: Exception opening socket"), message);
        assertFalse(message.contains("db7") || message.contains("shop.internal"), message);
        assertEquals("Max number of operations (?) of 500 has been exceeded after 2000 ms", forward(new MongoClientException(
                "Max number of operations (maxWaitQueueSize) of 500 has been exceeded after 2000 ms")).getMessage());
        // a number that is neither: a value
        assertEquals("Invalid status ? for ? ?", forward(new MongoClientException("Invalid status Pending for order 42"))
                .getMessage());
    }

    @Test
    void applicationAndJdkMessagesAreWithheldAndTheirTypesKept() {
        CodecConfigurationException wrapper = new CodecConfigurationException("An exception occurred when decoding using the"
                + " AutomaticPojoCodec.\nDecoding into a 'Order' failed with the following exception:\n\nFailed to decode"
                + " 'Order'. Decoding 'status' errored with: Invalid status Pending for order 42\n\nA custom Codec or PojoCodec"
                + " may need to be explicitly configured and registered to handle this type.",
                new OrderStatusException("Invalid status Pending for order 42"));
        MongoSocketOpenException socket = new MongoSocketOpenException("Exception opening socket", ADDRESS,
                new ConnectException("Connection refused to 10.1.2.3 for tenant Alice"));
        Throwable forwardedWrapper = forward(wrapper);
        assertSame(CodecConfigurationException.class, forwardedWrapper.getClass());
        String text = forwardedWrapper.getMessage();
        assertTrue(text.contains("Decoding '?' errored with: Invalid status ? for ? ?"), text);
        assertTrue(forwardedWrapper.getCause().getMessage().startsWith(OrderStatusException.class.getName() + ": ?message"),
                forwardedWrapper.getCause().getMessage());
        Throwable forwardedSocket = forward(socket);
        assertEquals("Exception opening socket", forwardedSocket.getMessage());
        assertSame(ConnectException.class, forwardedSocket.getCause().getClass());
        assertEquals("?message", forwardedSocket.getCause().getMessage());
        Throwable io = forward(new MongoException("Exception receiving message", new IOException("Pending: Alice")));
        assertEquals("?message", io.getCause().getMessage());
        for (Throwable t : new Throwable[]{forwardedWrapper, forwardedSocket, io}) {
            String all = everything(t);
            // the stand-in of the application's type names the type (OrderStatusException), as every stand-in does
            for (String value : new String[]{"Pending", "Alice", "Order", "42", "10.1.2.3"}) {
                assertFalse(containsWord(all, value), value + " in " + all);
            }
        }
    }

    /** Random words and common data values in every position of messages shaped like the driver's, of every kind of type. */
    @Test
    void noRandomWordOrDataValueSurvives() {
        Random random = new Random(0x5_2026L);
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            words.add(randomWord(random));
        }
        for (String word : DATA_WORDS) {
            words.add(word);
            words.add(word.toLowerCase(Locale.ROOT));
            words.add(word.toUpperCase(Locale.ROOT));
        }
        List<Function<String, Throwable>> kinds = List.of(
                w -> new MongoClientException("Invalid status " + w + " for order " + w),
                w -> new MongoSocketReadException("Exception receiving message from " + w + ":" + w, ADDRESS),
                w -> new MongoTimeoutException("Timed out after 30000 ms while waiting for " + w + " (" + w + ")"),
                w -> new MongoInternalException("The reply of " + w + " is '" + w + "' " + w),
                w -> new BsonSerializationException("Expecting a " + w + " but found " + w + "."),
                w -> new CodecConfigurationException("Decoding '" + w + "' errored with: " + w, new OrderStatusException(w)),
                w -> new MongoException("Exception sending message", new IllegalArgumentException(w,
                        new NumberFormatException("For input string: \"" + w + "\""))),
                w -> new OrderStatusException("Invalid status " + w),
                w -> new MongoSocketReadTimeoutException("Timeout while receiving message", ADDRESS,
                        new SocketTimeoutException(w + " timed out")));
        int checked = 0;
        for (String word : words) {
            for (Function<String, Throwable> kind : kinds) {
                String all = everything(forward(kind.apply(word)));
                assertFalse(containsWord(all, word), word + " survived in " + all);
                checked++;
            }
        }
        assertTrue(checked > 18_000, "checked " + checked);
    }

    private static boolean containsWord(final String text, final String word) {
        int at = text.indexOf(word);
        while (at >= 0) {
            boolean start = at == 0 || !Character.isLetterOrDigit(text.charAt(at - 1));
            int end = at + word.length();
            boolean stop = end == text.length() || !Character.isLetterOrDigit(text.charAt(end));
            if (start && stop) {
                return true;
            }
            at = text.indexOf(word, at + 1);
        }
        return false;
    }

    /** 6 to 10 random letters: a word of no language, so of no template. */
    private static String randomWord(final Random random) {
        StringBuilder word = new StringBuilder();
        int length = 6 + random.nextInt(5);
        for (int i = 0; i < length; i++) {
            word.append((char) ('a' + random.nextInt(26)));
        }
        return random.nextBoolean() ? Character.toUpperCase(word.charAt(0)) + word.substring(1) : word.toString();
    }
}

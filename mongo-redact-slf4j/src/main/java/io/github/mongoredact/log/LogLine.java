package io.github.mongoredact.log;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ConnectionDescription;
import io.github.mongoredact.StartedCommand;
import org.bson.types.ObjectId;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One log line, built in one pass from one list of entries: each entry is message text, a field (its value written into the
 * message and kept as a key-value pair), or a structured-only field (a key-value pair the driver's message does not show).
 * So the message and the key-value pairs can not disagree. Without key-value pairs (a back end that would write them into the
 * line beside the message) only the message is built. Not thread-safe: one per line.
 */
final class LogLine {
    private final StringBuilder message;
    private final List<Object> keyValues;
    private final boolean withKeyValuePairs;

    /**
     * @param capacity the message's first capacity
     * @param withKeyValuePairs whether the fields are kept as key-value pairs too
     */
    LogLine(final int capacity, final boolean withKeyValuePairs) {
        this.message = new StringBuilder(capacity);
        this.withKeyValuePairs = withKeyValuePairs;
        this.keyValues = withKeyValuePairs ? new ArrayList<>(36) : Collections.emptyList();
    }

    /** Message text only. */
    LogLine text(final String text) {
        message.append(text);
        return this;
    }

    /** A value shown in the message and kept as a key-value pair. */
    LogLine field(final String key, final Object value) {
        message.append(value);
        return structured(key, value);
    }

    /** A key-value pair the message does not show. */
    LogLine structured(final String key, final Object value) {
        if (withKeyValuePairs) {
            keyValues.add(key);
            keyValues.add(value);
        }
        return this;
    }

    /**
     * The driver's part from " using a connection" to "the operation ID is N.", with the started command's fields, and our
     * query fingerprint (structured only, {@code fingerprint}).
     */
    LogLine connection(final StartedCommand started) {
        ConnectionDescription description = started.getConnectionDescription();
        ServerAddress address = description.getServerAddress();
        text(" using a connection with driver-generated ID ").field("driverConnectionId", started.getDriverConnectionId());
        Long serverValue = started.getServerConnectionId();
        if (serverValue != null) {
            text(" and server-generated ID ").field("serverConnectionId", serverValue);
        }
        text(" to ").field("serverHost", address.getHost()).text(":").field("serverPort", address.getPort());
        ObjectId serviceId = description.getServiceId();
        if (serviceId != null) {
            text(" with service ID ").field("serviceId", serviceId.toHexString());
        }
        text(". The request ID is ").field("requestId", started.getRequestId())
                .text(" and the operation ID is ").field("operationId", started.getOperationId()).text(".");
        if (started.getFingerprint() != 0) {
            structured("fingerprint", started.getFingerprintHex());
        }
        return this;
    }

    String message() {
        return message.toString();
    }

    /** @return alternating keys and non-null values, in the order they were added; empty without key-value pairs */
    List<Object> keyValues() {
        return keyValues;
    }
}

package io.github.mongoredact.internal.message;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The message templates of the driver's own client-side exceptions that print a number, read from the driver's sources
 * ({@code bson} and {@code driver-core}, 4.11 to 5.x, and the 3.x wait-queue message): a number of a client message stays only
 * where one of these templates puts one, with the template's own text on both sides of it. In a template {@code #} is a number
 * that stays, {@code @} a host name (as {@code ServerAddress} prints it, before {@code :port}) and {@code *} any other value,
 * which the scrubber treats as it treats every word. A number is kept when the text right before it ends with the template's
 * text before its {@code #} (back to the previous {@code *} or {@code #}, across a host name) and the text right after it
 * starts with the template's text after it (up to the next slot), compared byte for byte, case-sensitive. So
 * {@code Timed out after 30000 ms while waiting for a server that matches ...} keeps {@code 30000} and
 * {@code Invalid numeric value 987600006 ms for ...} keeps nothing: a unit or a count word next to a number is not a template.
 * Deny by default: a number no template places becomes {@code ?}. Immutable and thread-safe; failure paths only.
 */
final class ClientMessageTemplates {
    private static final byte LITERAL = 0;
    private static final byte NUMBER = '#';
    private static final byte HOST = '@';
    private static final byte ANY = '*';

    /** The templates, as the driver formats them ({@code %d} as {@code #}, a server address as {@code @:#}). */
    private static final String[] TEMPLATES = {
        // server selection and connection check-out (BaseCluster, DefaultConnectionPool, LoadBalancedCluster)
        "Timed out after # ms while waiting for a server that matches *. Client view of cluster state is *",
        "Timed out after # ms while waiting to connect. Client view of cluster state is *",
        "Timed out after # ms while waiting for a connection to server @:#.",
        "Timed out after # ms while waiting for a connection to server @:#. Details: maxPoolSize: #, connections in use by"
                + " cursors: #, connections in use by transactions: #, connections in use by other operations: #",
        "Timed out after # ms while waiting to resolve SRV records for *.",
        "Timeout waiting for a pooled item after # *",
        "Max number of operations (maxWaitQueueSize) of # has been exceeded after # ms",
        "Max staleness (# sec) must be at least 90 seconds",
        "Max staleness (# ms) must be at least the heartbeat period (# ms) plus the idle write period (# ms)",
        // the cluster view inside those messages (ServerDescription.getShortDescription, ServerId, ConnectionId)
        "{address=@:#, type=*",
        ", roundTripTime=# ms, state=*",
        "address=@:#}",
        "connectionId{localValue:#}",
        "connectionId{localValue:#, serverValue:#}",
        "Server at @:# reports wire version #, but this version of the driver requires at least # (MongoDB *).",
        "Server at @:# requires wire version #, but this version of the driver only supports up to #.",
        // sizes (BsonBinaryWriter, BsonWriterHelper, ByteBufferBsonInput, BsonBinaryReader, UuidHelper)
        "Document size of # is larger than maximum of #.",
        "Payload document size is larger than maximum of #.",
        "While decoding a BSON document # bytes were required, but only # remain",
        "Expected size to be #, not #.",
        "Expected length to be 16, not #.",
        // the wire protocol (MessageHeader, ReplyHeader, CompressedHeader, ReplyMessage)
        "The reply message length # is greater than the maximum message length #",
        "The reply message length # is less than the minimum message length #",
        "The reply message length # is less than the mimimum message length #",
        "The reply message opCode # does not match the expected opCode #",
        "The responseTo (#) in the response does not match the requestId (#) in the request",
    };

    /** Each template cut into parts: {@link #KINDS} says what each is, a literal's bytes are in {@link #LITERALS}. */
    private static final byte[][] KINDS;
    private static final byte[][][] LITERALS;

    static {
        KINDS = new byte[TEMPLATES.length][];
        LITERALS = new byte[TEMPLATES.length][][];
        for (int t = 0; t < TEMPLATES.length; t++) {
            List<Byte> kinds = new ArrayList<>();
            List<byte[]> literals = new ArrayList<>();
            String template = TEMPLATES[t];
            int start = 0;
            for (int i = 0; i <= template.length(); i++) {
                char c = i < template.length() ? template.charAt(i) : 0;
                if (c == NUMBER || c == HOST || c == ANY || i == template.length()) {
                    if (i > start) {
                        kinds.add(LITERAL);
                        literals.add(template.substring(start, i).getBytes(StandardCharsets.US_ASCII));
                    }
                    if (i < template.length()) {
                        kinds.add((byte) c);
                        literals.add(null);
                    }
                    start = i + 1;
                }
            }
            KINDS[t] = new byte[kinds.size()];
            for (int k = 0; k < kinds.size(); k++) {
                KINDS[t][k] = kinds.get(k);
            }
            LITERALS[t] = literals.toArray(new byte[0][]);
        }
    }

    private ClientMessageTemplates() {
    }

    /** @return whether a template puts the number {@code src[from, to)} where it stands in {@code src[0, end)} */
    static boolean placesNumber(final byte[] src, final int end, final int from, final int to) {
        for (int t = 0; t < KINDS.length; t++) {
            byte[] kinds = KINDS[t];
            for (int k = 0; k < kinds.length; k++) {
                if (kinds[k] == NUMBER && matchesBefore(t, k, src, from) && matchesAfter(t, k, src, to, end)
                        && hasLiteralBeside(t, k)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A number slot counts only with the template's own text right beside it (every template has some). */
    private static boolean hasLiteralBeside(final int t, final int k) {
        byte[] kinds = KINDS[t];
        return (k > 0 && kinds[k - 1] == LITERAL) || (k + 1 < kinds.length && kinds[k + 1] == LITERAL);
    }

    /** The template's text before slot {@code k}, back to the previous value or number, ends at {@code at}. */
    private static boolean matchesBefore(final int t, final int k, final byte[] src, final int at) {
        int p = at;
        for (int j = k - 1; j >= 0; j--) {
            byte kind = KINDS[t][j];
            if (kind == LITERAL) {
                byte[] literal = LITERALS[t][j];
                if (p < literal.length || !same(literal, src, p - literal.length)) {
                    return false;
                }
                p -= literal.length;
            } else if (kind == HOST) {
                int start = p;
                while (start > 0 && isHostByte(src[start - 1])) {
                    start--;
                }
                if (start == p) {
                    return false;
                }
                p = start;
            } else {
                return true;
            }
        }
        return true;
    }

    /** The template's text after slot {@code k}, up to the next slot, starts at {@code at}. */
    private static boolean matchesAfter(final int t, final int k, final byte[] src, final int at, final int end) {
        if (k + 1 < KINDS[t].length && KINDS[t][k + 1] == LITERAL) {
            byte[] literal = LITERALS[t][k + 1];
            return end - at >= literal.length && same(literal, src, at);
        }
        return true;
    }

    private static boolean same(final byte[] literal, final byte[] src, final int at) {
        for (int i = 0; i < literal.length; i++) {
            if (src[at + i] != literal[i]) {
                return false;
            }
        }
        return true;
    }

    /** What {@code ServerAddress} prints as a host: a name, an IPv4 address or a bracketed IPv6 address. */
    private static boolean isHostByte(final byte b) {
        return ServerMessageVocabulary.isLetter(b) || (b >= '0' && b <= '9') || b == '.' || b == '-' || b == '_' || b == '['
                || b == ']' || b == ':' || b == '%';
    }
}

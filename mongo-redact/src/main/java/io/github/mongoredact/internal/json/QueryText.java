package io.github.mongoredact.internal.json;

import org.bson.BsonDocument;

/**
 * OpenTelemetry's {@code db.query.text} as the specification describes it: the command as relaxed JSON without
 * {@code lsid}, {@code $db}, {@code $clusterTime} and {@code signature}, cut as the logging specification cuts. Stateless.
 */
public final class QueryText {
    private static final String[] LEFT_OUT = {"lsid", "$db", "$clusterTime", "signature"};
    /** The first characters of the names left out, by byte: most names are told apart by their first byte. */
    private static final boolean[] LEFT_OUT_FIRST = new boolean[256];

    static {
        for (String name : LEFT_OUT) {
            LEFT_OUT_FIRST[name.charAt(0)] = true;
        }
    }

    private QueryText() {
    }

    /** @return the text of a redacted, owned command */
    public static String render(final BsonDocument command, final int maxLength) {
        return TruncatedJson.render(command, maxLength, LEFT_OUT);
    }

    /** Whether the top-level name {@code src[from, to)} is one the text leaves out. */
    static boolean isLeftOut(final byte[] src, final int from, final int to) {
        return to > from && LEFT_OUT_FIRST[src[from] & 0xFF] && RawJson.isSkipped(src, from, to, LEFT_OUT);
    }
}

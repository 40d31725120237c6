package io.github.mongoredact.internal.message;

import com.mongodb.lang.Nullable;

import java.nio.charset.StandardCharsets;

/**
 * Scrubs the message of one of the driver's own client-side exceptions (a socket failure, a time-out, an error of the BSON
 * library or a codec of the driver's), deny by default: only the fixed words of the driver's message templates stay
 * ({@link ClientMessageVocabulary}), with whitespace, punctuation and the names of the driver's, BSON's and the JDK's classes
 * ({@code com.mongodb.}, {@code org.bson.}, {@code java.}, {@code javax.}); a number stays only where one of the driver's
 * templates puts one, with the template's own text on both sides ({@link ClientMessageTemplates}: the {@code 30000} of
 * {@code Timed out after 30000 ms while waiting for a server that matches ...}, a port in {@code address=host:27017, type=}),
 * never for a unit or a count word beside it ({@code Invalid numeric value 987600006 ms for ...} keeps no number). Every other
 * word, number and quoted text becomes {@code ?}: {@code Decoding 'status' errored with: Invalid status Pending for order 42}
 * reads {@code Decoding '?' errored with: Invalid status ? for order ?}.
 *
 * <p>The message of any other throwable (an application's, a JDK exception's) is not scrubbed but withheld whole:
 * {@link #WITHHELD} stands in for it. Work is linear and bounded as for server messages ({@link ServerMessageScanner}'s
 * limits). Stateless and thread-safe; failure paths only, so it allocates.</p>
 */
public final class ClientMessageScrubber {
    /** The message of a throwable that is neither the server's nor the driver's: withheld whole. */
    public static final String WITHHELD = "?message";
    private static final String[] TRUSTED_PACKAGES = {"com.mongodb.", "org.bson.", "java.", "javax."};

    private final byte[] src;
    private final int end;
    private final StringBuilder out = new StringBuilder();

    private ClientMessageScrubber(final byte[] src) {
        this.src = src;
        this.end = src.length;
    }

    /**
     * @param message the message of a driver client exception
     * @return the message with only the template's words and the numbers its templates place
     */
    @Nullable
    public static String scrub(@Nullable final String message) {
        if (message == null) {
            return null;
        }
        boolean cut = message.length() > ServerMessageScanner.MAX_INPUT;
        String bounded = cut ? message.substring(0, ServerMessageScanner.MAX_INPUT) : message;
        ClientMessageScrubber scrubber = new ClientMessageScrubber(bounded.getBytes(StandardCharsets.UTF_8));
        return scrubber.run(cut);
    }

    /** @return whether the throwable's type is the driver's own (its message templates are known), not the server's */
    public static boolean isDriverType(final Class<?> type) {
        String name = type.getName();
        return name.startsWith("com.mongodb.") || name.startsWith("org.bson.");
    }

    private String run(final boolean cut) {
        ServerMessageText text = new ServerMessageText(src, 0, end);
        int i = 0;
        while (i < end) {
            if (out.length() > ServerMessageScanner.OUTPUT_BUDGET) {
                return out.append(' ').append(ServerMessageScanner.CUT_MARKER).toString();
            }
            byte c = src[i];
            if (ServerMessageText.isSpace(c)) {
                out.append((char) c);
                i = text.skipSpaces(i + 1);
            } else if ((c == '"' || c == '\'') && !text.isApostrophe(i)) {
                int close = text.closingQuote(i);
                out.append((char) c).append('?');
                if (close < 0) {
                    return out.toString();
                }
                out.append((char) c);
                i = close + 1;
            } else if (isWordByte(c)) {
                i = word(i, text);
            } else {
                out.append(c < 0x20 || c == 0x7F ? ' ' : (char) c);
                i++;
            }
        }
        return cut ? out.append(' ').append(ServerMessageScanner.CUT_MARKER).toString() : out.toString();
    }

    /** One word at {@code from}: kept, or {@code ?}; the dots that end a sentence after it are kept. @return where it ends */
    private int word(final int from, final ServerMessageText text) {
        int to = from;
        while (to < end && (isWordByte(src[to]) || (src[to] == '\'' && to > from && text.isApostrophe(to)))) {
            to++;
        }
        int core = to;
        while (core > from && src[core - 1] == '.') {
            core--;
        }
        if (core == from) {
            out.append('.');
            return from + 1;
        }
        if (keeps(from, core)) {
            out.append(new String(src, from, core - from, StandardCharsets.US_ASCII));
        } else {
            out.append('?');
        }
        for (int i = core; i < to; i++) {
            out.append('.');
        }
        return to;
    }

    private boolean keeps(final int from, final int to) {
        if (isNumber(from, to)) {
            return ClientMessageTemplates.placesNumber(src, end, from, to);
        }
        if (isTrustedClassName(from, to)) {
            return true;
        }
        return to - from <= ServerMessageVocabulary.MAX_WORD && isAscii(from, to)
                && ClientMessageVocabulary.TEMPLATE_WORDS.containsOrPossessive(src, from, to);
    }

    private boolean isNumber(final int from, final int to) {
        boolean digits = false;
        for (int i = from; i < to; i++) {
            byte b = src[i];
            if (b >= '0' && b <= '9') {
                digits = true;
            } else if (b != '.' || i == from) {
                return false;
            }
        }
        return digits;
    }

    private boolean isTrustedClassName(final int from, final int to) {
        for (String prefix : TRUSTED_PACKAGES) {
            if (to - from > prefix.length() && startsWith(from, prefix)) {
                for (int i = from; i < to; i++) {
                    byte b = src[i];
                    if (!(isLetter(b) || (b >= '0' && b <= '9') || b == '.' || b == '_' || b == '$')) {
                        return false;
                    }
                }
                return true;
            }
        }
        return false;
    }

    private boolean startsWith(final int from, final String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (src[from + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private boolean isAscii(final int from, final int to) {
        for (int i = from; i < to; i++) {
            if (src[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** Letters, digits and {@code _ $ . @}, and bytes past ASCII: what a word, a number or a name is made of. */
    private static boolean isWordByte(final byte b) {
        return isLetter(b) || (b >= '0' && b <= '9') || b == '_' || b == '$' || b == '.' || b == '@' || b < 0;
    }

    private static boolean isLetter(final byte b) {
        return ServerMessageVocabulary.isLetter(b);
    }
}

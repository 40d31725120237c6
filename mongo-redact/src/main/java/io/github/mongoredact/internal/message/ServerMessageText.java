package io.github.mongoredact.internal.message;

import static io.github.mongoredact.internal.message.ServerMessageVocabulary.isLetter;

/**
 * Reads the structure of one server message in {@code src[begin, end)} for {@link ServerMessageScanner}: where quotes,
 * values and documents end, where words end. Reads only, in linear time; one instance per scrub, not thread-safe.
 */
final class ServerMessageText {
    static final int BALANCED = 0;
    static final int VALUE = 1;
    static final int REST_OF_DOCUMENT = 2;

    private final byte[] src;
    private final int begin;
    private final int end;

    ServerMessageText(final byte[] src, final int begin, final int end) {
        this.src = src;
        this.begin = begin;
        this.end = end;
    }

    /**
     * Finds where a span ends. {@code BALANCED}: after the bracket that closes the one at {@code from}; {@code VALUE}: at
     * the {@code ,} or {@code }} that ends a value; {@code REST_OF_DOCUMENT}: at the {@code }} that closes the document.
     * Quotes are skipped whole. A {@code /} may open a regular expression, whose end cannot be found (it quotes any bracket
     * unescaped), so it ends the scan.
     *
     * @return the index, or -1 when the span runs to the end of the input
     */
    int spanEnd(final int from, final int mode) {
        int nesting = 0;
        int j = from;
        while (j < end) {
            byte b = src[j];
            if (b == '"' || (b == '\'' && !isApostrophe(j))) {
                int close = closingQuote(j);
                if (close < 0) {
                    return -1;
                }
                j = close + 1;
                continue;
            }
            if (b == '/') {
                return -1;
            }
            if (b == '{' || b == '[' || b == '(') {
                nesting++;
            } else if (b == '}' || b == ']' || b == ')') {
                if (nesting > 0) {
                    nesting--;
                    if (nesting == 0 && mode == BALANCED) {
                        return j + 1;
                    }
                } else if (b == '}' && mode != BALANCED) {
                    return j;
                }
            } else if (b == ',' && nesting == 0 && mode == VALUE) {
                return j;
            }
            j++;
        }
        return -1;
    }

    /**
     * Whether the document opened at {@code open} closes and every quoted string in it sits where the server prints one:
     * after {@code : , { [ (} and before {@code , : } ] )}. A value the server prints unquoted never holds a quote (a
     * string is printed quoted, with its quotes escaped), so a quote elsewhere means the text is not the server's
     * rendering and its keys cannot be told from values: the whole document is then one value.
     */
    boolean wellFormed(final int open) {
        int nesting = 0;
        byte before = '{';
        int j = open;
        while (j < end) {
            byte b = src[j];
            if (b == '"' || (b == '\'' && !isApostrophe(j))) {
                int close = closingQuote(j);
                int next = close < 0 ? -1 : peek(close + 1);
                if (close < 0 || !(before == ':' || before == ',' || before == '{' || before == '[' || before == '(')
                        || !(next == ',' || next == ':' || next == '}' || next == ']' || next == ')')) {
                    return false;
                }
                before = '"';
                j = close + 1;
                continue;
            }
            if (b == '/') {
                return false;
            }
            if (b == '{' || b == '[' || b == '(') {
                nesting++;
            } else if ((b == '}' || b == ']' || b == ')') && --nesting == 0) {
                return true;
            }
            if (!isSpace(b)) {
                before = b;
            }
            j++;
        }
        return false;
    }

    /** @return the index of the quote that closes the one at {@code open}, or -1; escapes and apostrophes are skipped */
    int closingQuote(final int open) {
        byte quote = src[open];
        for (int j = open + 1; j < end; j++) {
            byte b = src[j];
            if (b == '\\') {
                j++;
            } else if (b == quote && !(quote == '\'' && isApostrophe(j))) {
                return j;
            }
        }
        return -1;
    }

    /** An apostrophe inside a word ({@code Can't}, {@code O'Brien}) is a letter of it, not a quote. */
    boolean isApostrophe(final int j) {
        return j > begin && j + 1 < end && isLetter(src[j - 1]) && isLetter(src[j + 1]);
    }

    /** @return the end of the word at {@code from}: a run of anything but whitespace, punctuation, quotes, braces, colons */
    int wordEnd(final int from) {
        int j = from;
        while (j < end) {
            byte b = src[j];
            if (b == '\'' ? !(j > from && isApostrophe(j))
                    : isSpace(b) || isPunctuation(b) || b == '"' || b == '{' || b == '}' || b == ':') {
                return j;
            }
            j++;
        }
        return j;
    }

    /** @return the first byte at or after {@code from} that is not whitespace, or -1 at the end */
    int peek(final int from) {
        int j = skipSpaces(from);
        return j < end ? src[j] : -1;
    }

    int skipSpaces(final int from) {
        int j = from;
        while (j < end && isSpace(src[j])) {
            j++;
        }
        return j;
    }

    static boolean isSpace(final byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    static boolean isPunctuation(final byte b) {
        return b == '(' || b == ')' || b == '[' || b == ']' || b == ',' || b == ';' || b == '=' || b == '<' || b == '>'
                || b == '?' || b == '!';
    }
}

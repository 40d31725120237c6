package io.github.mongoredact.internal.message;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.mask.DataLikeKeys;

import static io.github.mongoredact.internal.message.ServerMessageText.BALANCED;
import static io.github.mongoredact.internal.message.ServerMessageText.REST_OF_DOCUMENT;
import static io.github.mongoredact.internal.message.ServerMessageText.VALUE;
import static io.github.mongoredact.internal.message.ServerMessageText.isPunctuation;
import static io.github.mongoredact.internal.message.ServerMessageText.isSpace;
import static io.github.mongoredact.internal.message.ServerMessageVocabulary.COLLECTION;
import static io.github.mongoredact.internal.message.ServerMessageVocabulary.E11000;
import static io.github.mongoredact.internal.message.ServerMessageVocabulary.INDEX;
import static io.github.mongoredact.internal.message.ServerMessageVocabulary.NEAR;
import static io.github.mongoredact.internal.message.ServerMessageVocabulary.NONE;

/**
 * One pass of {@link MessageScrubber} over one message: a tokenizer whose every step writes a bounded number of bytes, so
 * that the output can be capped at a step boundary. What stays: whitespace (a run becomes its first byte), punctuation,
 * words of {@link ServerMessageVocabulary}, field names before a {@code :} inside a document that follows server prose,
 * and the namespace and index name of a duplicate key message. Everything else becomes {@code ?}; a quoted string becomes
 * {@code "?"} or {@code '?'}. The output is ASCII whatever the input. One instance per call; not thread-safe.
 */
final class ServerMessageScanner {
    /** Bytes read at most: the rest of a longer message is cut, with {@link #CUT_MARKER}. */
    static final int MAX_INPUT = 64 * 1024;
    /** Once the output passes this size the scan stops at the next step (a step writes at most ~260 bytes). */
    static final int OUTPUT_BUDGET = 4096;
    static final String CUT_MARKER = "...";

    private final byte[] src;
    private final ServerMessageText text;
    private final int end;
    private final boolean inputCut;
    @Nullable
    private final byte[] dst;
    private final int start;
    private final boolean maskKeys;
    private int out;
    private int i;
    private byte last;
    /** Inside a document opened after server prose: a name before {@code :} is a key, all after it a value. */
    private boolean inBraces;
    /** The last token was a word of the vocabulary (whitespace, {@code :} and dots between allowed): a {@code {} may open. */
    private boolean trusted;
    /** The message is a duplicate key error, whose {@code collection:} and {@code index:} name metadata. */
    private boolean duplicateKey;
    private boolean nameNext;
    private int lastWord;
    /** A quote, value or pattern ran to the end of the input: there is nothing left to mark as cut. */
    private boolean consumedAll;

    ServerMessageScanner(final byte[] src, final int off, final int len, @Nullable final byte[] dst, final int dstIndex,
                         final boolean alreadyCut, final boolean maskDataLikeKeys) {
        this.maskKeys = maskDataLikeKeys;
        int bounded = Math.min(len, MAX_INPUT);
        this.src = src;
        this.end = off + bounded;
        this.inputCut = alreadyCut || len > bounded;
        this.text = new ServerMessageText(src, off, end);
        this.dst = dst;
        this.start = dstIndex;
        this.out = dstIndex;
        this.i = off;
    }

    /** @return the number of bytes written (or, without a destination, that would be written) */
    int run() {
        while (i < end && !consumedAll) {
            if (out - start > OUTPUT_BUDGET) {
                stop();
                return out - start;
            }
            step();
        }
        if (inputCut && !consumedAll) {
            stop();
        }
        return out - start;
    }

    private void step() {
        byte c = src[i];
        if (isSpace(c)) {
            put(c);
            i = text.skipSpaces(i + 1);
        } else if (c == '"' || c == '\'') {
            quoted();
        } else if (c == '{') {
            openBrace();
        } else if (c == ':') {
            colon();
        } else if (c == '}' || isPunctuation(c)) {
            put(c);
            i++;
            if (c == '}') {
                inBraces = false;
            }
            forget();
        } else {
            word();
        }
    }

    private void quoted() {
        byte quote = src[i];
        int close = text.closingQuote(i);
        if (close < 0) {
            put(quote);
            put((byte) '?');
            consumeAll();
            return;
        }
        if (inBraces && text.peek(close + 1) == ':') {
            put(quote);
            if (!name(i + 1, close, true)) {
                put((byte) '?');
            }
            put(quote);
        } else if (ServerMessageVocabulary.isQuotableName(src, i + 1, close)) {
            copy(i, close + 1);
        } else {
            put(quote);
            put((byte) '?');
            put(quote);
        }
        i = close + 1;
        forget();
        if (inBraces) {
            pairRest();
        }
    }

    /** After a key: its {@code :} and value are the same step, so a cut never separates a key from its value. */
    private void pairRest() {
        if (text.peek(i) != ':') {
            return;
        }
        if (isSpace(src[i])) {
            put(src[i]);
            i = text.skipSpaces(i + 1);
        }
        colon();
    }

    private void openBrace() {
        if (trusted && !inBraces && text.wellFormed(i)) {
            put((byte) '{');
            i++;
            inBraces = true;
            forget();
            return;
        }
        // a document that does not follow server prose is a value: its keys are not read
        replaceSpan(i, BALANCED);
    }

    private void colon() {
        put((byte) ':');
        i++;
        if (!inBraces) {
            nameNext = duplicateKey && (lastWord == COLLECTION || lastWord == INDEX);
            lastWord = NONE;
            return;
        }
        forget();
        if (i < end && isSpace(src[i])) {
            put(src[i]);
            i = text.skipSpaces(i + 1);
        }
        int stop = text.spanEnd(i, VALUE);
        put((byte) '?');
        if (stop < 0) {
            consumeAll();
            return;
        }
        int trailing = stop;
        while (trailing > i && isSpace(src[trailing - 1])) {
            trailing--;
        }
        if (trailing < stop) {
            put(src[trailing]);
        }
        i = stop;
    }

    private void word() {
        int from = i;
        int to = text.wordEnd(i);
        int core = to;
        while (core > from && src[core - 1] == '.') {
            core--;
        }
        if (core == from) {
            // a dot on its own: punctuation that ends a sentence, no value
            put((byte) '.');
            i = from + 1;
            nameNext = false;
            lastWord = NONE;
            return;
        }
        i = core;
        if (inBraces) {
            if (!(text.peek(core) == ':' && name(from, core, true))) {
                put((byte) '?');
            }
            forget();
            if (core == to) {
                pairRest();
            }
            return;
        }
        if (nameNext && (lastWord == COLLECTION ? copyMetadataName(from, core) : name(from, core, false))) {
            forget();
            return;
        }
        int kind = ServerMessageVocabulary.classify(src, from, core);
        if (kind == NONE) {
            forget();
            if (core == to && to < end && src[to] == '(') {
                replaceSpan(to, BALANCED);
            } else {
                put((byte) '?');
            }
            return;
        }
        copy(from, core);
        boolean patternFollows = kind == INDEX && lastWord == NEAR;
        duplicateKey |= kind == E11000;
        trusted = true;
        nameNext = false;
        lastWord = kind;
        if (patternFollows) {
            dropPattern();
        }
    }

    /** A regular expression error quotes the pattern after "near index N": nothing after it is server prose. */
    private void dropPattern() {
        if (i < end && isSpace(src[i])) {
            put(src[i]);
            i = text.skipSpaces(i + 1);
        }
        if (i < end) {
            put((byte) '?');
        }
        consumeAll();
    }

    /** Ends a scan that is cut: the open document is closed over one {@code ?}, then the marker if anything is left. */
    private void stop() {
        if (inBraces) {
            put((byte) '?');
            int close = text.spanEnd(i, REST_OF_DOCUMENT);
            if (close < 0) {
                consumeAll();
                return;
            }
            put((byte) '}');
            inBraces = false;
            i = close + 1;
        }
        if (i < end || inputCut) {
            if (out > start && !isSpace(last)) {
                put((byte) ' ');
            }
            for (int k = 0; k < CUT_MARKER.length(); k++) {
                put((byte) CUT_MARKER.charAt(k));
            }
        }
    }

    private void replaceSpan(final int from, final int mode) {
        int after = text.spanEnd(from, mode);
        put((byte) '?');
        forget();
        if (after < 0) {
            consumeAll();
        } else {
            i = after;
        }
    }

    private void forget() {
        trusted = false;
        nameNext = false;
        lastWord = NONE;
    }

    private void consumeAll() {
        consumedAll = true;
        i = end;
    }

    /** The namespace of a duplicate key: kept when shaped like one. @return whether it was written */
    private boolean copyMetadataName(final int from, final int to) {
        if (!ServerMessageVocabulary.isMetadataName(src, from, to)) {
            return false;
        }
        copy(from, to);
        return true;
    }

    /**
     * A field name ({@code field}) or an index name, written when it is shaped like one; where names that look like data are
     * masked, its segments that do ({@link DataLikeKeys}) read {@code ?key}, and the others must be shaped like names.
     *
     * @return whether it was written
     */
    private boolean name(final int from, final int to, final boolean field) {
        if (to - from > ServerMessageVocabulary.MAX_NAME) {
            return false;
        }
        if (!maskKeys || !DataLikeKeys.isDataLike(src, from, to)) {
            boolean shaped = field ? ServerMessageVocabulary.isFieldName(src, from, to)
                    : ServerMessageVocabulary.isMetadataName(src, from, to);
            if (shaped) {
                copy(from, to);
            }
            return shaped;
        }
        for (int f = from; f <= to; ) {
            int t = DataLikeKeys.segmentEnd(src, f, to);
            if (!DataLikeKeys.isDataLikeSegment(src, f, t) && !ServerMessageVocabulary.isMetadataName(src, f, t)) {
                return false;
            }
            f = t + 1;
        }
        out += DataLikeKeys.writeMasked(src, from, to, 0, dst, out);
        last = '?';
        return true;
    }

    private void copy(final int from, final int to) {
        for (int j = from; j < to; j++) {
            put(src[j]);
        }
    }

    private void put(final byte b) {
        if (dst != null) {
            dst[out] = b;
        }
        out++;
        last = b;
    }
}

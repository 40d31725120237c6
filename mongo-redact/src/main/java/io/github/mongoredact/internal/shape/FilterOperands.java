package io.github.mongoredact.internal.shape;

import com.mongodb.lang.Nullable;
import io.github.mongoredact.internal.bson.BsonTypes;
import io.github.mongoredact.internal.bson.Bytes;

/**
 * The operands of the filter's leaf operators, read as the server's parser reads them and reduced to what their serialization
 * shows ({@code expression_leaf.cpp}): a regex's options present or not; an {@code $in}'s first element of each canonical type
 * (numbers one type, strings and symbols one type) plus one regex if any; a bit test's positions empty or not; a {@code $type}'s
 * set of types, written verbatim. Values the server refuses, and redacted values whose part of the shape the copy can not tell
 * ({@code $exists: "?bool"}, a bit mask {@code "?number"}, {@code $options: "?string"}), are refused.
 *
 * <p>Not thread-safe: one per {@link FilterParser}.</p>
 */
final class FilterOperands {
    private static final byte[] SIZE = Literals.ascii("$size");
    private static final byte[] EXISTS = Literals.ascii("$exists");
    private static final byte[] TYPE = Literals.ascii("$type");
    private static final byte[] MOD = Literals.ascii("$mod");
    private static final byte[] REGEX = Literals.ascii("$regex");
    private static final byte[] OPTIONS = Literals.ascii("$options");
    private static final byte[][] BITS = {Literals.ascii("$bitsAllSet"), Literals.ascii("$bitsAllClear"),
        Literals.ascii("$bitsAnySet"), Literals.ascii("$bitsAnyClear")};
    private static final byte[] REF = Literals.ascii("$ref");
    private static final byte[] ID = Literals.ascii("$id");
    private static final byte[] DB = Literals.ascii("$db");
    private static final int ARRAY_OF_NUMBERS = Literals.ARRAY_OF | Literals.NUMBER;

    private final Source in;
    private final TypeSets typeSets;

    FilterOperands(final Source in) {
        this.in = in;
        this.typeSets = new TypeSets(in);
    }

    /**
     * The operators other than comparisons, {@code $in}, {@code $not}, {@code $elemMatch} and {@code $all}: {@code path} and
     * {@code name} are {@link Span}s.
     *
     * @return the node, or null for {@code $options} (read with its {@code $regex})
     */
    @Nullable
    MatchNode leaf(final long path, final int sub, final int depth, final long name, final byte type, final int value) {
        int pathOff = Span.off(path);
        int pathLen = Span.len(path);
        int key = Span.off(name);
        int keyLen = Span.len(name);
        if (in.is(key, keyLen, SIZE)) {
            return size(pathOff, pathLen, type, value);
        }
        if (in.is(key, keyLen, EXISTS)) {
            return exists(pathOff, pathLen, type, value);
        }
        if (in.is(key, keyLen, TYPE)) {
            MatchNode node = MatchNode.path(MatchNode.TYPE, pathOff, pathLen);
            typeSets.parse(node, type, value, depth + 1);
            return node;
        }
        if (in.is(key, keyLen, MOD)) {
            return mod(pathOff, pathLen, type, value, depth + 1);
        }
        if (in.is(key, keyLen, REGEX)) {
            return regexDocument(pathOff, pathLen, sub, depth);
        }
        if (in.is(key, keyLen, OPTIONS)) {
            // read with its $regex, wherever that is
            regexDocument(pathOff, pathLen, sub, depth);
            return null;
        }
        for (byte[] bits : BITS) {
            if (in.is(key, keyLen, bits)) {
                MatchNode node = MatchNode.path(MatchNode.BITS, pathOff, pathLen);
                node.operator = bits;
                node.code = bits(type, value, depth + 1) ? ARRAY_OF_NUMBERS : Literals.EMPTY_ARRAY;
                return node;
            }
        }
        throw Unshapeable.because("unsupported operator " + in.text(key, keyLen));
    }

    /** A BSON regex value: {@code {path: /pattern/options}}. */
    MatchNode regexElement(final int pathOff, final int pathLen, final int value) {
        int patternEnd = cStringEnd(value);
        int flags = patternEnd + 1;
        MatchNode node = MatchNode.path(MatchNode.REGEX, pathOff, pathLen);
        node.hasOptions = checkOptions(flags, cStringEnd(flags) - flags);
        return node;
    }

    /** {@code {path: {$regex: ..., $options: ...}}}: one regex from the whole operator document. */
    private MatchNode regexDocument(final int pathOff, final int pathLen, final int sub, final int depth) {
        int end = in.open(sub, depth);
        int regexes = 0;
        int optionsFields = 0;
        boolean regexFlags = false;
        boolean options = false;
        for (int p = sub + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            byte type = in.type();
            int value = in.value();
            if (in.keyIs(REGEX)) {
                regexes++;
                if (type == BsonTypes.REGEX) {
                    int flags = cStringEnd(value) + 1;
                    regexFlags = checkOptions(flags, cStringEnd(flags) - flags);
                } else if (type != BsonTypes.STRING || in.placeholder(type, value) != Source.NONE
                        && in.placeholder(type, value) != (BsonTypes.STRING & 0xff)) {
                    throw Unshapeable.because("$regex has to be a string or a regex");
                } else if (in.placeholder(type, value) == Source.NONE) {
                    checkNoNul(value + 4, in.stringLength(value));
                }
            } else if (in.keyIs(OPTIONS)) {
                optionsFields++;
                if (type != BsonTypes.STRING || in.isPlaceholder(type, value)) {
                    throw Unshapeable.because("$options has to be a string (a redacted one hides whether it is empty)");
                }
                options = checkOptions(value + 4, in.stringLength(value));
            }
        }
        if (regexes != 1 || optionsFields > 1 || regexFlags && optionsFields > 0) {
            throw Unshapeable.because("$options without one $regex, or options set twice");
        }
        MatchNode node = MatchNode.path(MatchNode.REGEX, pathOff, pathLen);
        node.hasOptions = regexFlags || options;
        return node;
    }

    /** Checks regex options (the flags the server's PCRE wrapper takes). @return whether there are any */
    private boolean checkOptions(final int off, final int len) {
        for (int i = off; i < off + len; i++) {
            byte b = in.bytes()[i];
            if (b != 'i' && b != 'm' && b != 's' && b != 'x') {
                throw Unshapeable.because("a regex option the engine does not accept");
            }
        }
        return len > 0;
    }

    private void checkNoNul(final int off, final int len) {
        for (int i = off; i < off + len; i++) {
            if (in.bytes()[i] == 0) {
                throw Unshapeable.because("a regular expression cannot contain an embedded null byte");
            }
        }
    }

    private int cStringEnd(final int off) {
        int i = off;
        while (in.bytes()[i] != 0) {
            i++;
        }
        return i;
    }

    /** {@code $in}: the class of its first element of each canonical type, plus one regex if it holds any. */
    MatchNode in(final int pathOff, final int pathLen, final byte type, final int value, final int depth) {
        if (type != BsonTypes.ARRAY) {
            throw Unshapeable.because("$in/$nin needs an array");
        }
        int end = in.open(value, depth);
        int canonical = 0;
        boolean regex = false;
        for (int p = value + 4; p < end;) {
            in.read(p, end);
            byte elementType = in.type();
            int element = in.value();
            p = in.valueEnd();
            if (elementType == BsonTypes.DOCUMENT) {
                int documentEnd = in.open(element, depth + 1);
                if (firstKeyStartsWithDollar(element, depth + 1) && !isDbRef(element, documentEnd, false)) {
                    throw Unshapeable.because("cannot nest $ under $in");
                }
            }
            int code = in.elementClass(elementType, element);
            if (code == (BsonTypes.REGEX & 0xff)) {
                regex = true;
                if (elementType == BsonTypes.REGEX) {
                    regexElement(0, 0, element);
                }
            } else if (code == (BsonTypes.UNDEFINED & 0xff)) {
                throw Unshapeable.because("undefined in $in");
            } else {
                canonical |= 1 << canonicalBit(code);
            }
        }
        int types = Integer.bitCount(canonical) + (regex ? 1 : 0);
        MatchNode node = MatchNode.path(MatchNode.IN, pathOff, pathLen);
        node.code = types == 0 ? Literals.EMPTY_ARRAY : types > 1 ? Literals.MIXED_ARRAY
                : Literals.ARRAY_OF | (regex ? BsonTypes.REGEX : typeOfBit(Integer.numberOfTrailingZeros(canonical)));
        return node;
    }

    private boolean firstKeyStartsWithDollar(final int doc, final int depth) {
        int end = in.open(doc, depth);
        if (end == doc + 4) {
            return false;
        }
        in.read(doc + 4, end);
        return in.keyLength() > 0 && in.bytes()[in.key()] == '$';
    }

    /** One bit per canonical type: numbers share one, strings and symbols share one. */
    private static int canonicalBit(final int code) {
        if (Literals.isNumber(code)) {
            return Literals.NUMBER;
        }
        if (code == (BsonTypes.SYMBOL & 0xff)) {
            return BsonTypes.STRING;
        }
        return code < 0x20 ? code : code == BsonTypes.MAX_KEY ? 30 : 31;
    }

    private static int typeOfBit(final int bit) {
        return bit < 0x20 && bit != 30 && bit != 31 ? bit : bit == 30 ? BsonTypes.MAX_KEY : BsonTypes.MIN_KEY & 0xff;
    }

    /** The server's DBRef test: {@code $ref} and {@code $id} (any of {@code $ref}, {@code $id}, {@code $db} if incomplete). */
    boolean isDbRef(final int doc, final int end, final boolean allowIncomplete) {
        boolean ref = false;
        boolean id = false;
        boolean db = false;
        for (int p = doc + 4; p < end && !(ref && id); p = in.valueEnd()) {
            in.read(p, end);
            ref |= in.keyIs(REF);
            id |= in.keyIs(ID);
            db |= in.keyIs(DB);
        }
        return allowIncomplete ? ref || id || db : ref && id;
    }

    private MatchNode size(final int pathOff, final int pathLen, final byte type, final int value) {
        if (in.placeholder(type, value) != Literals.NUMBER_UNKNOWN) {
            long size = in.integral(type, value);
            if (size < 0 || size > Integer.MAX_VALUE) {
                throw Unshapeable.because("$size must be a non-negative int");
            }
        }
        return MatchNode.path(MatchNode.SIZE, pathOff, pathLen);
    }

    /** {@code $exists}: a truthy operand gives EXISTS, a falsy one NOT(EXISTS). */
    private MatchNode exists(final int pathOff, final int pathLen, final byte type, final int value) {
        int placeholder = in.placeholder(type, value);
        boolean truth;
        if (placeholder != Source.NONE) {
            if (Literals.isNumber(placeholder) || placeholder == (BsonTypes.BOOLEAN & 0xff)) {
                throw Unshapeable.because("a redacted $exists operand: true or false can not be told");
            }
            truth = placeholder != (BsonTypes.NULL & 0xff) && placeholder != (BsonTypes.UNDEFINED & 0xff);
        } else if (type == BsonTypes.BOOLEAN) {
            truth = in.bytes()[value] != 0;
        } else if (type == BsonTypes.DOUBLE) {
            truth = Double.longBitsToDouble(Bytes.readLong(in.bytes(), value)) != 0;
        } else if (type == BsonTypes.INT32 || type == BsonTypes.INT64) {
            truth = in.integral(type, value) != 0;
        } else if (type == BsonTypes.DECIMAL128) {
            throw Unshapeable.because("a decimal $exists operand");
        } else {
            truth = type != BsonTypes.NULL && type != BsonTypes.UNDEFINED;
        }
        MatchNode node = MatchNode.path(MatchNode.EXISTS, pathOff, pathLen);
        return truth ? node : MatchNode.not(node);
    }

    private MatchNode mod(final int pathOff, final int pathLen, final byte type, final int value, final int depth) {
        if (type != BsonTypes.ARRAY) {
            throw Unshapeable.because("malformed mod, needs to be an array");
        }
        int end = in.open(value, depth);
        int count = 0;
        for (int p = value + 4; p < end; p = in.valueEnd()) {
            in.read(p, end);
            count++;
            if (in.placeholder(in.type(), in.value()) != Literals.NUMBER_UNKNOWN) {
                long number = in.integral(in.type(), in.value());
                if (count == 1 && number == 0) {
                    throw Unshapeable.because("divisor cannot be 0");
                }
            }
        }
        if (count != 2) {
            throw Unshapeable.because("malformed mod, needs two elements");
        }
        return MatchNode.path(MatchNode.MOD, pathOff, pathLen);
    }

    /** A bit test's operand. @return whether it names any bit position */
    private boolean bits(final byte type, final int value, final int depth) {
        if (in.isPlaceholder(type, value)) {
            throw Unshapeable.because("a redacted bit mask: whether it names any bit can not be told");
        }
        if (type == BsonTypes.ARRAY) {
            int end = in.open(value, depth);
            for (int p = value + 4; p < end; p = in.valueEnd()) {
                in.read(p, end);
                if (in.placeholder(in.type(), in.value()) != Literals.NUMBER_UNKNOWN) {
                    long position = in.integral(in.type(), in.value());
                    if (position < 0 || position > Integer.MAX_VALUE) {
                        throw Unshapeable.because("a bit position must be a non-negative int");
                    }
                }
            }
            return end > value + 4;
        }
        if (type == BsonTypes.BINARY) {
            int length = Bytes.readInt(in.bytes(), value);
            if (in.bytes()[value + 4] == BsonTypes.OLD_BINARY_SUBTYPE) {
                throw Unshapeable.because("an old binary bit mask");
            }
            for (int i = value + 5; i < value + 5 + length; i++) {
                if (in.bytes()[i] != 0) {
                    return true;
                }
            }
            return false;
        }
        long mask = in.integral(type, value);
        if (mask < 0) {
            throw Unshapeable.because("a bit mask must be non-negative");
        }
        return mask != 0;
    }
}

package io.github.mongoredact.deny;

import com.mongodb.lang.Nullable;
import org.bson.BsonBinary;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonDouble;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonJavaScript;
import org.bson.BsonJavaScriptWithScope;
import org.bson.BsonObjectId;
import org.bson.BsonRegularExpression;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.types.ObjectId;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes the planted values of one run from a fixed seed, each unique and recognisable wherever it lands: strings, code and
 * regex patterns hold {@code QZX<id>} (never followed by a digit), numbers, ObjectIds, binaries and dates are made from the id
 * with digits no command, reply or cursor id holds by chance. Knows them all, so a forwarded value or a text can be traced
 * back to the planted value it is. Not thread-safe; one instance per run.
 */
final class Planted {
    static final String PREFIX = "QZX";
    private static final Pattern STRING_MARKER = Pattern.compile(PREFIX + "(\\d+)");
    private static final long LONG_BASE = 7_391_000_000_000_000_000L;
    private static final int INT_BASE = 1_739_000_000;
    private static final long DATE_BASE = 1_391_000_000_000L;
    private static final String[] SENTINELS = {"7391", "1739", "9391", "1391", "2014-0", "515a58", "515A58", "UVpY"};

    /** One planted value and the texts it shows as in JSON and in server messages. */
    static final class Value {
        final int id;
        final String kind;
        final BsonValue value;
        final List<String> texts = new ArrayList<>();

        Value(final int id, final String kind, final BsonValue value) {
            this.id = id;
            this.kind = kind;
            this.value = value;
        }
    }

    private final Random random;
    private final List<Value> values = new ArrayList<>();
    private final Map<BsonValue, Value> byValue = new HashMap<>();
    private final Map<String, Pattern> numberTexts = new HashMap<>();

    Planted(final long seed) {
        this.random = new Random(seed);
    }

    Random random() {
        return random;
    }

    int nextInt(final int bound) {
        return random.nextInt(bound);
    }

    boolean chance(final int percent) {
        return random.nextInt(100) < percent;
    }

    <T> T pick(final T[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    /** @return a string holding a new marker, sometimes inside realistic text */
    BsonString string() {
        int id = values.size();
        String[] shapes = {"%s", "%s@example.com", "card 4111-%s-1111", "Can't find %s", "user.%s.name"};
        String marker = PREFIX + id;
        BsonString value = new BsonString(String.format(Locale.ROOT, pick(shapes), marker));
        return register(new Value(id, "string", value), marker);
    }

    /** @return the bare marker text of a new string value, for places that take a Java string */
    String text() {
        return string().getValue();
    }

    /**
     * @return a key that is data, holding a new marker, in one of the forms the default key masking knows (an e-mail
     * address, a date, a hexadecimal id, a phone number); without dots, so that it is one key wherever it stands
     */
    String dataKey() {
        int id = values.size();
        String marker = PREFIX + id;
        String[] forms = {"%s@mail-example", "2026-12-01-%s", "%s-6b0dd09aa86bc4d263d28547", "+1 555 %s"};
        String key = String.format(Locale.ROOT, pick(forms), marker);
        register(new Value(id, "key", new BsonString(key)), marker);
        return key;
    }

    /** @return the text with each marker replaced by a new one of a new value of the same kind (for twins of keys) */
    String remark(final String text) {
        Matcher matcher = STRING_MARKER.matcher(text);
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (matcher.find()) {
            int id = values.size();
            register(new Value(id, "key", new BsonString(text)), PREFIX + id);
            out.append(text, at, matcher.start()).append(PREFIX).append(id);
            at = matcher.end();
        }
        return out.append(text.substring(at)).toString();
    }

    BsonInt64 int64() {
        int id = values.size();
        BsonInt64 value = new BsonInt64(LONG_BASE + id * 1_000_003L);
        return register(new Value(id, "int64", value), Long.toString(value.getValue()));
    }

    BsonInt32 int32() {
        int id = values.size();
        BsonInt32 value = new BsonInt32(INT_BASE + id * 7);
        return register(new Value(id, "int32", value), Integer.toString(value.getValue()));
    }

    BsonDouble dbl() {
        int id = values.size();
        // an exact binary fraction: the same digits in every printer
        BsonDouble value = new BsonDouble(9391.0 + (id + 1) / 1024.0);
        return register(new Value(id, "double", value), Double.toString(value.getValue()));
    }

    BsonObjectId objectId() {
        int id = values.size();
        byte[] bytes = {0x51, 0x5A, 0x58, 0x7E, 0x39, 0x13, 0, 0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8),
                (byte) id};
        BsonObjectId value = new BsonObjectId(new ObjectId(bytes));
        return register(new Value(id, "objectId", value), value.getValue().toHexString());
    }

    BsonBinary binary() {
        int id = values.size();
        byte[] bytes = (PREFIX + id + "-binary").getBytes(StandardCharsets.US_ASCII);
        BsonBinary value = new BsonBinary(bytes);
        String hex = new BigInteger(1, bytes).toString(16);
        return register(new Value(id, "binary", value), Base64.getEncoder().encodeToString(bytes), PREFIX + id + "-", hex,
                hex.toUpperCase(Locale.ROOT));
    }

    BsonDateTime date() {
        int id = values.size();
        BsonDateTime value = new BsonDateTime(DATE_BASE + id * 1_000L + 739);
        return register(new Value(id, "date", value), Long.toString(value.getValue()),
                Instant.ofEpochMilli(value.getValue()).toString());
    }

    BsonRegularExpression regex() {
        int id = values.size();
        BsonRegularExpression value = new BsonRegularExpression("^" + PREFIX + id + "[a-z]+", "i");
        return register(new Value(id, "regex", value), PREFIX + id);
    }

    BsonJavaScript code() {
        int id = values.size();
        BsonJavaScript value = new BsonJavaScript("function() { return this.email == '" + PREFIX + id + "_'; }");
        return register(new Value(id, "code", value), PREFIX + id);
    }

    BsonJavaScriptWithScope codeWithScope() {
        int id = values.size();
        BsonJavaScriptWithScope value = new BsonJavaScriptWithScope("function() { return " + PREFIX + id + "_; }",
                new BsonDocument("limit", int64()));
        return register(new Value(id, "codeWithScope", value), PREFIX + id);
    }

    /** @return a planted scalar of a random kind */
    BsonValue scalar() {
        switch (random.nextInt(10)) {
            case 0: return int64();
            case 1: return int32();
            case 2: return dbl();
            case 3: return objectId();
            case 4: return binary();
            case 5: return date();
            case 6: return regex();
            default: return string();
        }
    }

    /** @return a planted number of a random kind */
    BsonValue number() {
        switch (random.nextInt(3)) {
            case 0: return int64();
            case 1: return int32();
            default: return dbl();
        }
    }

    private <T extends BsonValue> T register(final Value planted, final String... texts) {
        for (String text : texts) {
            planted.texts.add(text);
            if (!text.contains(PREFIX)) {
                numberTexts.put(text, Pattern.compile("(?<![0-9A-Za-z+/])" + Pattern.quote(text) + "(?![0-9])"));
            }
        }
        values.add(planted);
        byValue.put(planted.value, planted);
        @SuppressWarnings("unchecked")
        T value = (T) planted.value;
        return value;
    }

    int count() {
        return values.size();
    }

    /** @return the planted value this forwarded leaf is or holds, or null */
    @Nullable
    Value identify(final BsonValue leaf) {
        Value exact = byValue.get(leaf);
        if (exact != null) {
            return exact;
        }
        String text = null;
        if (leaf.isString()) {
            text = leaf.asString().getValue();
        } else if (leaf.isRegularExpression()) {
            text = leaf.asRegularExpression().getPattern();
        } else if (leaf.isJavaScript()) {
            text = leaf.asJavaScript().getCode();
        } else if (leaf.isJavaScriptWithScope()) {
            text = leaf.asJavaScriptWithScope().getCode();
        } else if (leaf.isBinary()) {
            text = new String(leaf.asBinary().getData(), StandardCharsets.ISO_8859_1);
        } else if (leaf.isSymbol()) {
            text = leaf.asSymbol().getSymbol();
        }
        List<Value> found = text == null ? new ArrayList<>() : inText(text);
        return found.isEmpty() ? null : found.get(0);
    }

    /** A quick filter: every non-marker form begins with one of these (the bases above, their hex and base64). */
    private static boolean mayHoldNumberForm(final String text) {
        for (String start : SENTINELS) {
            if (text.contains(start)) {
                return true;
            }
        }
        return false;
    }

    /** @return every planted value whose text shows in {@code text} */
    List<Value> inText(final String text) {
        List<Value> found = new ArrayList<>();
        if (text.contains(PREFIX)) {
            Matcher matcher = STRING_MARKER.matcher(text);
            while (matcher.find()) {
                int id = Integer.parseInt(matcher.group(1));
                found.add(id < values.size() ? values.get(id) : new Value(id, "unknown", new BsonString(matcher.group())));
            }
        }
        if (!mayHoldNumberForm(text)) {
            return found;
        }
        for (Value value : values) {
            for (String form : value.texts) {
                if (!form.contains(PREFIX) && text.contains(form) && numberTexts.get(form).matcher(text).find()
                        && !found.contains(value)) {
                    found.add(value);
                }
            }
        }
        return found;
    }
}

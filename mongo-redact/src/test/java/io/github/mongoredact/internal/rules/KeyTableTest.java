package io.github.mongoredact.internal.rules;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class KeyTableTest {

    @Test
    void findsEveryNameInPlaceAndNothingElse() {
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            Set<String> distinct = new HashSet<>();
            int count = random.nextInt(80);
            while (distinct.size() < count) {
                distinct.add(name(random));
            }
            List<String> names = new ArrayList<>(distinct);
            byte[][] bytes = utf8(names.toArray(new String[0]));
            KeyTable table = new KeyTable(bytes);
            for (int i = 0; i < bytes.length; i++) {
                // the key read in place, inside a larger array
                byte[] src = ("xx" + names.get(i) + "yy").getBytes(StandardCharsets.UTF_8);
                assertEquals(i, table.indexOf(src, 2, bytes[i].length), names.get(i));
            }
            for (int probe = 0; probe < 200; probe++) {
                String other = name(random);
                byte[] src = other.getBytes(StandardCharsets.UTF_8);
                assertEquals(names.indexOf(other), table.indexOf(src, 0, src.length), other);
            }
        }
    }

    @Test
    void tellsNamesThatShareLengthAndEndsApart() {
        String[] names = {"a", "ab", "abc", "axc", "abcabc", "abxabc", "", "$db", "$dc"};
        byte[][] bytes = utf8(names);
        KeyTable table = new KeyTable(bytes);
        for (int i = 0; i < names.length; i++) {
            assertEquals(i, table.indexOf(bytes[i], 0, bytes[i].length), names[i]);
        }
        byte[] absent = "aXc".getBytes(StandardCharsets.UTF_8);
        assertEquals(-1, table.indexOf(absent, 0, absent.length));
        assertEquals(-1, KeyTable.EMPTY.indexOf(absent, 0, absent.length));
        assertEquals(-1, KeyTable.EMPTY.indexOf(absent, 0, 0));
    }

    @Test
    void tellsNamesThatShareTheirFirstEightBytesApartAndReadsKeysAtTheArraysEnd() {
        String[] names = {"abcdefgh", "abcdefghi", "abcdefghj", "abcdefgh12345678", "abcdefgh12345679",
            "abcdefgh123456789", "abcdefgh123456780", "abcdefgX", "findAndModify", "findAndModifY"};
        byte[][] bytes = utf8(names);
        KeyTable table = new KeyTable(bytes);
        for (int i = 0; i < names.length; i++) {
            // alone (fewer than eight bytes past the key's start for the short ones), and at the end of a larger array
            assertEquals(i, table.indexOf(bytes[i], 0, bytes[i].length), names[i]);
            byte[] atEnd = ("zz" + names[i]).getBytes(StandardCharsets.UTF_8);
            assertEquals(i, table.indexOf(atEnd, 2, bytes[i].length), names[i]);
            for (int cut = 0; cut < bytes[i].length; cut++) {
                // every prefix is another key: found only where it is a name too
                String prefix = names[i].substring(0, cut);
                int expected = java.util.Arrays.asList(names).indexOf(prefix);
                assertEquals(expected, table.indexOf(bytes[i], 0, cut), prefix);
            }
        }
        for (String absent : new String[]{"abcdefgi", "abcdefghk", "abcdefgh1234567X", "abcdefgh12345678X", "abc", ""}) {
            byte[] src = absent.getBytes(StandardCharsets.UTF_8);
            assertEquals(-1, table.indexOf(src, 0, src.length), absent);
        }
    }

    private static byte[][] utf8(final String... names) {
        byte[][] bytes = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            bytes[i] = names[i].getBytes(StandardCharsets.UTF_8);
        }
        return bytes;
    }

    private static String name(final Random random) {
        char[] chars = new char[random.nextInt(12)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = "abc$.XYZé"
                    .charAt(random.nextInt(9));
        }
        return new String(chars);
    }
}

package io.github.mongoredact.internal.mask;

import io.github.mongoredact.internal.bson.Output;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Array keys are an index's decimal digits, one digit, tabled or computed alike: written, copied and recognised. */
class IndexKeysTest {

    @Test
    void writesCopiesAndRecognisesEveryIndexAsItsDecimalDigits() {
        byte[] copied = new byte[16];
        byte[] written = new byte[16];
        for (int index = 0; index < IndexKeys.TABLED + 1_500; index++) {
            byte[] expected = Integer.toString(index).getBytes(StandardCharsets.US_ASCII);
            assertEquals(expected.length, IndexKeys.digits(index), "index=" + index);
            Arrays.fill(copied, (byte) 'x');
            IndexKeys.copy(copied, 3, index);
            assertArrayEquals(expected, Arrays.copyOfRange(copied, 3, 3 + expected.length), "copied index=" + index);
            assertEquals('x', copied[3 + expected.length], "copied past its digits: index=" + index);
            Output out = new Output();
            out.exact(written, 2);
            IndexKeys.write(out, index);
            assertEquals(2 + expected.length, out.position(), "written index=" + index);
            assertArrayEquals(expected, Arrays.copyOfRange(written, 2, 2 + expected.length), "written index=" + index);
            // the key as sent, at an offset: its own index only
            byte[] key = new byte[1 + expected.length + 1];
            System.arraycopy(expected, 0, key, 1, expected.length);
            assertTrue(IndexKeys.matches(key, 1, expected.length, index), "index=" + index);
            assertFalse(IndexKeys.matches(key, 1, expected.length, index + 1), "index=" + index + " as " + (index + 1));
            assertFalse(IndexKeys.matches(key, 1, expected.length, index + 10), "index=" + index + " as " + (index + 10));
            assertFalse(IndexKeys.matches(key, 1, expected.length + 1, index), "index=" + index + " with its NUL");
            if (expected.length > 1) {
                assertFalse(IndexKeys.matches(key, 1, expected.length - 1, index), "index=" + index + " cut");
            }
            // a name as an array element holds it: its digits and NUL, before the end of its array
            assertTrue(IndexKeys.isName(key, 1, key.length, index), "name index=" + index);
            assertFalse(IndexKeys.isName(key, 1, key.length - 1, index), "name index=" + index + " its NUL at the end");
            assertFalse(IndexKeys.isName(key, 1, key.length, index + 1), "name index=" + index + " as " + (index + 1));
            byte[] longer = Arrays.copyOf(key, key.length + 1);
            longer[key.length - 1] = '0';
            assertFalse(IndexKeys.isName(longer, 1, longer.length, index), "name index=" + index + " followed by a digit");
            byte[] zero = new byte[key.length + 1];
            zero[1] = '0';
            System.arraycopy(expected, 0, zero, 2, expected.length);
            assertFalse(IndexKeys.isName(zero, 1, zero.length, index), "name index=" + index + " after a leading zero");
        }
    }
}

package io.github.mongoredact.internal.bson;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The one UTF-8 sequence check, which the kept-string validation and the collection-name cache share, against the JDK's. */
class Utf8SequenceTest {

    @Test
    void acceptsExactlyTheSequencesTheJdkDecodes() {
        Random random = new Random(19);
        byte[] src = new byte[4];
        for (int n = 0; n < 100_000; n++) {
            random.nextBytes(src);
            src[0] |= (byte) 0x80;
            if (n % 2 == 0) {
                // continuation bytes most of the time, so that valid sequences are common
                for (int k = 1; k < 4; k++) {
                    src[k] = (byte) (0x80 | (src[k] & 0x3F));
                }
            }
            int end = BsonValidation.utf8SequenceEnd(src, 0, src.length);
            assertEquals(jdkSequenceEnd(src), end < 0 ? -1 : end, () -> toHex(src));
        }
    }

    /** @return the length of the one code point the JDK decodes from a prefix of the bytes, or -1 */
    private static int jdkSequenceEnd(final byte[] src) {
        for (int length = 2; length <= 4; length++) {
            try {
                String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(src, 0, length)).toString();
                if (s.codePointCount(0, s.length()) == 1) {
                    return length;
                }
            } catch (CharacterCodingException e) {
                // not a whole sequence at this length
            }
        }
        return -1;
    }

    private static String toHex(final byte[] src) {
        StringBuilder b = new StringBuilder();
        for (byte x : src) {
            b.append(String.format("%02x ", x & 0xff));
        }
        return b.toString();
    }
}

package io.github.mongoredact.internal.rules;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The spec's sensitive command names are recognised ignoring case, and no other name is: {@link SpecRedaction#isSensitiveName}
 * against a reference that compares the name with each sensitive one, for the names, every case of them, and every name one
 * character away from them (a letter, a digit, punctuation, a control character, characters past ASCII that fold to a letter).
 */
class SpecRedactionNamesTest {
    /** The command logging and monitoring spec's sensitive commands. */
    private static final String[] SENSITIVE = {"authenticate", "saslStart", "saslContinue", "getnonce", "createUser",
            "updateUser", "copydbgetnonce", "copydbsaslstart", "copydb"};

    /** The reference: the same length, the same first letter ignoring ASCII case, and {@code equalsIgnoreCase}. */
    private static boolean reference(final String name) {
        for (String sensitive : SENSITIVE) {
            if (sensitive.length() == name.length() && !name.isEmpty()
                    && (sensitive.charAt(0) | 0x20) == (name.charAt(0) | 0x20) && sensitive.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void recognisesTheSensitiveNamesInAnyCaseAndNoNameOneCharacterAway() {
        List<String> names = new ArrayList<>(List.of("", "insert", "find", "hello", "isMaster", "copydc", "x", "aggregate",
                "getMore", "killCursors"));
        char[] others = {'a', 'z', 'A', 'Z', 'c', 'C', 's', 'S', '0', '9', '$', '@', '_', '`', '{', ' ', '\0', '\u007f',
            '\u0080', '\u00e9', '\u0130', '\u0131', '\u017f', '\u212a', '\u0161', '\u0163', '\u0141', '\u0143', '\u0153'};
        for (String sensitive : SENSITIVE) {
            names.add(sensitive);
            names.add(sensitive.toUpperCase(java.util.Locale.ROOT));
            names.add(sensitive.toLowerCase(java.util.Locale.ROOT));
            names.add(sensitive.substring(1));
            names.add(sensitive + "s");
            for (int i = 0; i < sensitive.length(); i++) {
                char c = sensitive.charAt(i);
                names.add(sensitive.substring(0, i) + (char) (c ^ 0x20) + sensitive.substring(i + 1));
                for (char other : others) {
                    names.add(sensitive.substring(0, i) + other + sensitive.substring(i + 1));
                }
            }
        }
        int sensitiveCount = 0;
        for (String name : names) {
            boolean expected = reference(name);
            assertEquals(expected, SpecRedaction.isSensitiveName(name), () -> "name=" + name);
            sensitiveCount += expected ? 1 : 0;
        }
        // each name in its own case, upper, lower, each letter's case flipped, and the substitutions that fold to it
        assertTrue(sensitiveCount > 9 * 3, "sensitive variants: " + sensitiveCount);
        for (String name : new String[]{"SaslStart", "COPYDB", "copyDb", "CreateUser", "GETNONCE"}) {
            assertTrue(SpecRedaction.isSensitiveName(name), name);
        }
        for (String name : new String[]{"", "insert", "copydc", "copydb ", "saslStar", "\u017faslStart"}) {
            assertFalse(SpecRedaction.isSensitiveName(name), name);
        }
    }
}

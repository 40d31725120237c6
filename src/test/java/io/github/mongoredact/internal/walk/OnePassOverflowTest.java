package io.github.mongoredact.internal.walk;

import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.rules.CompiledPolicies;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The one pass into a scratch of guessed room: where the output fits, it is byte for byte the exact write; where it does not,
 * the pass still ends with the exact size and analysis, and says so, so that the caller writes again.
 */
class OnePassOverflowTest {

    @Test
    void onePassWritesTheExactOutputWhereItFitsAndTheExactSizeWhereItDoesNot() {
        Random random = new Random(11);
        for (int round = 0; round < 200; round++) {
            RandomCommands generator = new RandomCommands(random.nextLong());
            RandomCommands.Command command = generator.command();
            byte[] src = DriverShapes.encode(RedactionPropertiesTest.merged(command));
            for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.defaults(), RedactionPolicy.specOnly()}) {
                CompiledPolicy compiled = CompiledPolicies.compile(policy);
                CompiledPolicy.RuleSet rules = compiled.commandRules(command.name);
                RedactionWalker walker = new RedactionWalker();
                int size = walker.size(src, 0, src.length, rules, true, compiled);
                long fingerprint = walker.fingerprint();
                long redacted = walker.valuesRedacted();
                byte[] exact = new byte[size];
                walker.bind(src, 0, src.length, rules, true, compiled);
                walker.write(exact, 0, 0, 0);
                for (int room : new int[]{0, 4, size / 2, size - 1, size, size + 7}) {
                    String context = "round=" + round + " room=" + room + " size=" + size + " policy=" + policy;
                    byte[] scratch = new byte[3 + room + 5];
                    Arrays.fill(scratch, (byte) 0x7E);
                    walker.bind(src, 0, src.length, rules, true, compiled);
                    assertEquals(size, walker.sizeAndWrite(scratch, 3, 3 + room, true), context);
                    assertEquals(room < size, walker.overflowed(), context);
                    assertEquals(fingerprint, walker.fingerprint(), context);
                    assertEquals(redacted, walker.valuesRedacted(), context);
                    if (room >= size) {
                        assertArrayEquals(exact, Arrays.copyOfRange(scratch, 3, 3 + size), context);
                    }
                    for (int i = 3 + Math.min(room, size); i < scratch.length; i++) {
                        assertEquals(0x7E, scratch[i], context + ": written past the room at " + i);
                    }
                    walker.clear();
                }
            }
        }
    }
}

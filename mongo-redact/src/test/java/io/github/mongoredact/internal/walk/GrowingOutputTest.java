package io.github.mongoredact.internal.walk;

import io.github.mongoredact.DriverShapes;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.bson.Workspace;
import io.github.mongoredact.internal.rules.CompiledPolicies;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The one pass into a growing output: whatever the room of the array it starts in, it ends with the exact write's bytes,
 * size and analysis, the array grown where the output needed more room.
 */
class GrowingOutputTest {

    @Test
    void theOnePassWritesTheExactOutputWhateverTheRoomItStartsWith() {
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
                    byte[] first = new byte[room];
                    walker.bind(src, 0, src.length, rules, true, compiled);
                    assertEquals(size, walker.write(new Workspace.Scratch(), first, true), context);
                    byte[] written = walker.written();
                    assertEquals(room < size, written != first, context + ": grown only where the output needed more room");
                    assertEquals(fingerprint, walker.fingerprint(), context);
                    assertEquals(redacted, walker.valuesRedacted(), context);
                    assertArrayEquals(exact, Arrays.copyOf(written, size), context);
                    walker.clear();
                }
            }
        }
    }
}

package io.github.mongoredact;

import io.github.mongoredact.DriverShapes.Backing;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fingerprint is the query's shape and nothing else, over random commands ({@link ShapedCommands}): for each shape seed a
 * command, a twin with other values (and other data in its masked keys) and a mutant with one decision of its shape changed.
 * The shape each one has is told by an oracle written apart from the walker ({@link ShapedCommands#shape}); then two
 * commands of one shape must have one fingerprint (a difference counts as a value collision: a value reached the
 * fingerprint), two commands of different shapes different ones (an equal pair counts as a shape collision), and a command
 * without masked keys the same fingerprint under {@code defaults()}, {@code specOnly()} and a policy that keeps everything but
 * walks every element. Run with {@code -Dfingerprint.commands=N} for more.
 */
class FingerprintPropertiesTest {
    private static final int COMMANDS = Integer.getInteger("fingerprint.commands", 10_000);
    private static final long SEED = Long.getLong("fingerprint.seed", 0xF1_2026L);

    /** The fingerprint of the last started command a listener saw. */
    private static final class Fingerprints implements CommandSink {
        private final RedactingCommandListener listener;
        private boolean documents;
        private long last;

        Fingerprints(final RedactionPolicy policy) {
            this.listener = RedactingCommandListener.builder().policy(policy).addSink(this).build();
        }

        long of(final String name, final BsonDocument command, final boolean withDocuments) {
            documents = withDocuments;
            last = 0;
            listener.commandStarted(DriverShapes.started(1, name, command));
            assertEquals(0, listener.getCounters().getRedactionFailures(), () -> command.toJson());
            return last;
        }

        @Override
        public boolean needsDocuments() {
            return documents;
        }

        @Override
        public void started(final StartedCommand command) {
            last = command.getFingerprint();
        }
    }

    private final Fingerprints defaults = new Fingerprints(RedactionPolicy.defaults());
    private final Fingerprints specOnly = new Fingerprints(RedactionPolicy.specOnly());
    /** Everything kept, but not as one copy: every element is walked (a sequence limit makes the rules not verbatim). */
    private final Fingerprints keepsAll = new Fingerprints(RedactionPolicy.builder(RedactionPolicy.specOnly())
            .maxSequenceDocuments(1_000_000).build());
    private final Map<String, Long> fingerprintOfShape = new HashMap<>();
    private final Map<Long, String> shapeOfFingerprint = new HashMap<>();
    private int valueCollisions;
    private int shapeCollisions;
    private int policyDisagreements;
    private final List<String> examples = new ArrayList<>();

    @Test
    void commandsOfOneShapeShareTheFingerprintAndOtherShapesDoNot() {
        Random random = new Random(SEED);
        int commands = 0;
        int crossPolicy = 0;
        int nearMisses = 0;
        for (int i = 0; i < COMMANDS; i++) {
            long shapeSeed = SEED + i;
            long valueSeed = random.nextLong();
            ShapedCommands base = new ShapedCommands(shapeSeed, valueSeed, 0);
            BsonDocument command = base.command();
            ShapedCommands twin = new ShapedCommands(shapeSeed, random.nextLong(), 0);
            BsonDocument other = twin.command();
            ShapedCommands mutant = new ShapedCommands(shapeSeed, valueSeed, 1 + random.nextInt(Math.max(1,
                    base.decisions())));
            BsonDocument mutated = mutant.command();
            if (!ShapedCommands.shape(mutated, true).equals(ShapedCommands.shape(command, true))) {
                // one decision apart: the pairs a weak fingerprint would mix up
                nearMisses++;
            }
            for (BsonDocument sent : new BsonDocument[]{command, other, mutated}) {
                long fingerprint = defaults.of(sent.getFirstKey(), input(sent, random), random.nextBoolean());
                record(ShapedCommands.shape(sent, true), fingerprint, sent);
                commands++;
            }
            for (ShapedCommands generated : new ShapedCommands[]{base, twin}) {
                BsonDocument sent = generated == base ? command : other;
                if (!generated.dataLikeKeys) {
                    crossPolicy++;
                    long expected = defaults.of(sent.getFirstKey(), input(sent, random), false);
                    if (expected != specOnly.of(sent.getFirstKey(), input(sent, random), random.nextBoolean())
                            || expected != keepsAll.of(sent.getFirstKey(), input(sent, random), random.nextBoolean())) {
                        policyDisagreements++;
                        example("policies disagree: " + sent.toJson());
                    }
                }
            }
        }
        System.out.println("fingerprint properties: " + commands + " commands, " + fingerprintOfShape.size()
                + " distinct shapes, " + nearMisses + " mutants one decision away from their command's shape,"
                + " value collisions (one shape, two fingerprints) " + valueCollisions
                + ", shape collisions (two shapes, one fingerprint) " + shapeCollisions + ", " + crossPolicy
                + " commands under three policies, disagreements " + policyDisagreements);
        assertTrue(commands >= 30_000 || COMMANDS < 10_000, "commands " + commands);
        assertTrue(fingerprintOfShape.size() > COMMANDS, "distinct shapes " + fingerprintOfShape.size());
        assertTrue(nearMisses > COMMANDS / 2, "mutants of another shape " + nearMisses);
        assertEquals(0, valueCollisions, String.join("\n", examples));
        assertEquals(0, shapeCollisions, String.join("\n", examples));
        assertEquals(0, policyDisagreements, String.join("\n", examples));
    }

    private void record(final String shape, final long fingerprint, final BsonDocument command) {
        Long known = fingerprintOfShape.putIfAbsent(shape, fingerprint);
        if (known != null && known != fingerprint) {
            valueCollisions++;
            example("one shape, two fingerprints: " + shape + " " + command.toJson());
        }
        String knownShape = shapeOfFingerprint.putIfAbsent(fingerprint, shape);
        if (knownShape != null && !knownShape.equals(shape)) {
            shapeCollisions++;
            example("two shapes, one fingerprint: " + shape + " and " + knownShape);
        }
    }

    private void example(final String text) {
        if (examples.size() < 10) {
            examples.add(text);
        }
    }

    /** The command as the driver hands it: byte-backed, or a plain top level with its sequence, backed as chosen. */
    static BsonDocument input(final BsonDocument command, final Random random) {
        return input(command, Backing.values()[random.nextInt(Backing.values().length)]);
    }

    /** The driver's shape of a generated command: its sequence (if any) apart, as documents of that backing. */
    static BsonDocument input(final BsonDocument command, final Backing backing) {
        for (String sequence : new String[]{"documents", "updates", "deletes"}) {
            BsonValue documents = command.get(sequence);
            if (documents != null && documents.isArray()) {
                BsonDocument top = command.clone();
                top.remove(sequence);
                List<BsonDocument> list = new ArrayList<>();
                for (BsonValue document : (BsonArray) documents) {
                    list.add(document.asDocument());
                }
                return DriverShapes.withSequences(top, backing, sequence, list);
            }
        }
        return DriverShapes.byteBacked(command, backing);
    }
}

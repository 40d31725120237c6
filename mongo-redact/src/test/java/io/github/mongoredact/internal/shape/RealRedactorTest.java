package io.github.mongoredact.internal.shape;

import io.github.mongoredact.PlaceholderStyle;
import io.github.mongoredact.RedactionPolicy;
import io.github.mongoredact.internal.rules.CompiledPolicies;
import io.github.mongoredact.internal.rules.CompiledPolicy;
import io.github.mongoredact.internal.walk.DocumentRedactor;
import org.bson.BsonDocument;
import org.bson.RawBsonDocument;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The integration's contract, on the corpus commands redacted by the real redactor ({@link RedactionPolicy#defaults()} and its
 * fixed-placeholder variant): the shape of a redacted copy, when there is one, is the shape of the command itself. A copy never
 * shapes into another shape; it shapes into none where it can not tell.
 */
class RealRedactorTest {
    private final QueryShaper shaper = new QueryShaper();

    @Test
    void aRedactedCopyShapesAsItsCommandOrNotAtAll() {
        List<String> equal = new ArrayList<>();
        List<String> none = new ArrayList<>();
        for (RedactionPolicy policy : new RedactionPolicy[]{RedactionPolicy.defaults(),
            RedactionPolicy.builder().placeholderStyle(PlaceholderStyle.FIXED).build()}) {
            CompiledPolicy compiled = CompiledPolicies.compile(policy);
            DocumentRedactor redactor = new DocumentRedactor();
            for (BsonDocument c : QueryShapeCorpusTest.cases()) {
                String id = c.getString("id").getValue();
                BsonDocument command = new RawBsonDocument(Commands.bytes(c.getDocument("command")));
                byte[] original = Commands.bytes(command);
                QueryShape shape = shaper.shape(original, 0, original.length);
                byte[] copy = redactor.redactCommand(command, compiled, compiled.commandRules(command.getFirstKey()), true, false);
                QueryShape redacted = shaper.shapeRedacted(copy, 0, copy.length);
                // the comparison the listener makes, without a shape or a hash of the copy, answers as equals() would
                assertEquals(shape != null && shape.equals(redacted), shape != null && shaper.hasShapeRedacted(shape, copy, 0,
                        copy.length), id);
                if (redacted == null) {
                    none.add(id);
                    continue;
                }
                assertEquals(shape, redacted, id + ": the copy " + Commands.json(copy) + " shapes otherwise than its command");
                equal.add(id);
            }
        }
        // with typed placeholders some copies keep their shape; with "?" none does
        assertTrue(equal.size() > 10, "shapes kept: " + equal + "\nnone: " + none);
    }
}

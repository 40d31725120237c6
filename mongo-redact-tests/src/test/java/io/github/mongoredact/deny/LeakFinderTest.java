package io.github.mongoredact.deny;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The checks of {@link DenyByDefaultTest} can fail: every planted kind is found wherever it lands, and only there. */
class LeakFinderTest {

    @Test
    void findsEveryPlantedKindInDocumentsByPath() {
        Planted planted = new Planted(1);
        List<BsonValue> values = Arrays.asList(planted.string(), planted.int64(), planted.int32(), planted.dbl(),
                planted.objectId(), planted.binary(), planted.date(), planted.regex(), planted.code(), planted.codeWithScope());
        BsonDocument document = new BsonDocument("find", new BsonString("users"))
                .append("filter", new BsonDocument("a", new BsonArray(values)));
        LeakFinder finder = new LeakFinder(planted);
        finder.document("find", "command", document);
        Set<String> kinds = new TreeSet<>();
        for (Leak leak : finder.leaks()) {
            kinds.add(leak.kind);
            assertTrue(leak.path.startsWith("command.filter.a[]"), leak.toString());
        }
        assertEquals(new TreeSet<>(Arrays.asList("string", "int64", "int32", "double", "objectId", "binary", "date", "regex",
                "code", "codeWithScope")), kinds);
    }

    @Test
    void findsPlantedValuesQuotedInServerTexts() {
        Planted planted = new Planted(2);
        String text = "dup key: { _id: " + planted.int64().getValue() + ", oid: ObjectId('"
                + planted.objectId().getValue().toHexString() + "'), bin: BinData(0, "
                + new java.math.BigInteger(1, planted.binary().getData()).toString(16).toUpperCase() + "), at: "
                + planted.date().getValue() + ", name: " + planted.text() + " }";
        LeakFinder finder = new LeakFinder(planted);
        finder.text("insert", "failure.getMessage()", text);
        Set<String> kinds = new TreeSet<>();
        finder.leaks().forEach(leak -> kinds.add(leak.kind));
        assertEquals(new TreeSet<>(Arrays.asList("int64", "objectId", "binary", "date", "string")), kinds);
    }

    @Test
    void ignoresPlaceholdersAndNumbersThatOnlyShareDigits() {
        Planted planted = new Planted(3);
        long planted64 = planted.int64().getValue();
        LeakFinder finder = new LeakFinder(planted);
        finder.document("find", "command", new BsonDocument("filter", new BsonDocument("email", new BsonString("?string")))
                .append("limit", new org.bson.BsonInt64(planted64 + 1)).append("note", new BsonString("1" + planted64)));
        assertTrue(finder.leaks().isEmpty(), finder.leaks().toString());
    }

    @Test
    void followsTheCauseChainAndWriteResults() {
        Planted planted = new Planted(4);
        Failures failures = new Failures(new UserData(planted), new Replies(new UserData(planted)));
        MongoBulkWriteException bulk = failures.bulkWrite();
        LeakFinder finder = new LeakFinder(planted);
        finder.failure("insert", "failure", new MongoException("wrapper", bulk));
        List<String> paths = new ArrayList<>();
        finder.leaks().forEach(leak -> paths.add(leak.path));
        assertTrue(paths.contains("failure.getCause().getWriteResult().getUpserts()[].getId()"), paths.toString());
        assertTrue(paths.contains("failure.getCause().getWriteResult().getInserts()[].getId()"), paths.toString());
        assertTrue(paths.contains("failure.getCause().getWriteErrors()[].getDetails().keyValue.email"), paths.toString());
        assertFalse(paths.contains("failure.getMessage()"), paths.toString());
    }

    @Test
    void knownLeakPatternsMatchOnePathStepOrAny() {
        KnownLeaks.Entry step = new KnownLeaks.Entry("** command.projection.*", "r");
        assertTrue(step.matches(new Leak("find", "command.projection.score", "int32", "")));
        assertTrue(step.matches(new Leak("driver.find", "command.projection.score", "int32", "")));
        assertFalse(step.matches(new Leak("find", "command.projection.items.$elemMatch", "int32", "")));
        KnownLeaks.Entry family = new KnownLeaks.Entry("dropUser command.dropUser", "r");
        assertFalse(family.matches(new Leak("driver.dropUser", "command.dropUser", "string", "")));
    }
}

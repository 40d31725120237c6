package io.github.mongoredact.spec;

import com.mongodb.lang.Nullable;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decides whether a spec test runs for real (the real driver against the embedded server) or with constructed driver
 * events, and says why. A test runs with constructed events when its run-on requirements do not hold for the embedded server,
 * when it needs a test-runner facility the embedded server lacks (fail points, transactions), or when the embedded server is
 * known to answer its commands differently from a real server (listed below, each with what it does).
 */
final class Feasibility {
    /** What the embedded server answers differently, by test id. */
    private static final Map<String, String> EMBEDDED_SERVER_DIFFERS = new LinkedHashMap<>();

    static {
        EMBEDDED_SERVER_DIFFERS.put("monitoring/find.json: A successful find with showRecordId and returnKey",
                "the embedded server ignores returnKey and returns whole documents");
        EMBEDDED_SERVER_DIFFERS.put("monitoring/deleteMany.json: A successful deleteMany with write errors",
                "the embedded server fails the delete command (ok: 0) where a real server reports writeErrors under ok: 1");
        EMBEDDED_SERVER_DIFFERS.put("monitoring/deleteOne.json: A successful deleteOne with write errors",
                "the embedded server fails the delete command (ok: 0) where a real server reports writeErrors under ok: 1");
        EMBEDDED_SERVER_DIFFERS.put("monitoring/insertOne.json: A successful insertOne with write errors",
                "the embedded server reports n: 1 beside a duplicate key write error where a real server reports n: 0");
        EMBEDDED_SERVER_DIFFERS.put("monitoring/insertMany.json: A successful insertMany with write errors",
                "the embedded server reports n: 1 beside a duplicate key write error where a real server reports n: 0");
        EMBEDDED_SERVER_DIFFERS.put("logging/unacknowledged-write.json: An unacknowledged write generates a succeeded log"
                + " message with ok: 1 reply", "the embedded server closes the connection on an unacknowledged (w: 0) write"
                + " without applying it, so the following find neither returns the document nor logs only what a real"
                + " server would");
        EMBEDDED_SERVER_DIFFERS.put("monitoring/server-connection-id.json: command events include server connection id",
                "the embedded server's handshake reply has no connectionId, so no event has a server connection id");
        EMBEDDED_SERVER_DIFFERS.put("logging/server-connection-id.json: command log messages include server connection id",
                "the embedded server's handshake reply has no connectionId, so no event has a server connection id");
    }

    /** Commands the embedded server does not know. */
    private static final Map<String, String> EMBEDDED_SERVER_LACKS = Map.of(
            "hello", "the embedded server has no hello command",
            "getnonce", "the embedded server has no getnonce command");

    private Feasibility() {
    }

    /**
     * @param serverVersion the embedded server's version (from buildInfo)
     * @return why the test runs with constructed events, or null when it runs for real
     */
    @Nullable
    static String constructedReason(final SpecCase specCase, final String serverVersion) {
        for (BsonArray requirements : specCase.requirements()) {
            if (!anyHolds(requirements, serverVersion)) {
                return "runOnRequirements " + requirements.toString() + " do not hold for the embedded server (version "
                        + serverVersion + ", single topology, no auth)";
            }
        }
        String differs = EMBEDDED_SERVER_DIFFERS.get(specCase.id);
        if (differs != null) {
            return differs;
        }
        for (BsonValue value : specCase.operations()) {
            BsonDocument operation = value.asDocument();
            String name = operation.getString("name").getValue();
            if (name.equals("failPoint")) {
                return "needs a failPoint, which the embedded server lacks";
            }
            if (name.equals("startTransaction") || name.equals("clientBulkWrite")) {
                return "needs " + name + ", which the embedded server lacks";
            }
            if (name.equals("runCommand")) {
                String command = operation.getDocument("arguments").getDocument("command").getFirstKey();
                if (EMBEDDED_SERVER_LACKS.containsKey(command)) {
                    return EMBEDDED_SERVER_LACKS.get(command);
                }
            }
        }
        return null;
    }

    private static boolean anyHolds(final BsonArray requirements, final String serverVersion) {
        for (BsonValue requirement : requirements) {
            if (holds(requirement.asDocument(), serverVersion)) {
                return true;
            }
        }
        return requirements.isEmpty();
    }

    private static boolean holds(final BsonDocument requirement, final String serverVersion) {
        for (Map.Entry<String, BsonValue> entry : requirement.entrySet()) {
            BsonValue value = entry.getValue();
            switch (entry.getKey()) {
                case "minServerVersion":
                    if (compare(serverVersion, value.asString().getValue()) < 0) {
                        return false;
                    }
                    break;
                case "maxServerVersion":
                    if (compare(serverVersion, value.asString().getValue()) > 0) {
                        return false;
                    }
                    break;
                case "topologies":
                    if (!value.asArray().contains(new org.bson.BsonString("single"))) {
                        return false;
                    }
                    break;
                case "auth":
                    if (value.asBoolean().getValue()) {
                        return false;
                    }
                    break;
                case "serverless":
                    if (value.asString().getValue().equals("require")) {
                        return false;
                    }
                    break;
                default:
                    return false;
            }
        }
        return true;
    }

    /** Compares dotted versions numerically, missing parts as 0. */
    static int compare(final String left, final String right) {
        String[] a = left.split("\\.");
        String[] b = right.split("\\.");
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            int x = i < a.length ? Integer.parseInt(a[i]) : 0;
            int y = i < b.length ? Integer.parseInt(b[i]) : 0;
            if (x != y) {
                return Integer.compare(x, y);
            }
        }
        return 0;
    }
}

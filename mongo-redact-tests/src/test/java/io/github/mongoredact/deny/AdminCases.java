package io.github.mongoredact.deny;

import org.bson.BsonArray;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.github.mongoredact.deny.CrudCases.array;

/**
 * Constructed commands the embedded server does not run: index and collection management with validators and partial
 * indexes, user and role management, {@code logApplicationMessage}, {@code eval}, transactions, the client {@code bulkWrite}
 * with its {@code ops} and {@code nsInfo} sequences, {@code explain} and {@code mapReduce}.
 */
final class AdminCases {
    private static final BsonString DB = new BsonString("shop");
    private static final BsonString ADMIN = new BsonString("admin");

    private final UserData data;
    private final Planted planted;
    private final Pipelines pipelines;
    private final Replies replies;
    private final Failures failures;

    AdminCases(final UserData data, final Pipelines pipelines, final Replies replies, final Failures failures) {
        this.data = data;
        this.planted = data.planted();
        this.pipelines = pipelines;
        this.replies = replies;
        this.failures = failures;
    }

    List<Case> all() {
        List<Case> cases = new ArrayList<>();
        for (int round = 0; round < CrudCases.ROUNDS; round++) {
            cases.add(createIndexes());
            cases.add(new Case("create", new BsonDocument("create", new BsonString("users")).append("validator",
                    data.validator()).append("validationLevel", new BsonString("strict")).append("$db", DB)));
            cases.add(new Case("collMod", new BsonDocument("collMod", new BsonString("users")).append("validator",
                    data.validator()).append("$db", DB)).failure(failures.command()));
            cases.add(user("createUser"));
            cases.add(user("updateUser"));
            cases.add(new Case("usersInfo", new BsonDocument("usersInfo", planted.chance(50) ? planted.string()
                    : new BsonDocument("user", planted.string()).append("db", DB)).append("showCustomData",
                    BsonBoolean.TRUE).append("$db", DB)).reply(replies.usersInfo()).firstIsNotCollection());
            cases.add(new Case("dropUser", new BsonDocument("dropUser", planted.string()).append("$db", DB))
                    .firstIsNotCollection());
            cases.add(new Case("grantRolesToUser", new BsonDocument("grantRolesToUser", planted.string())
                    .append("roles", array(role())).append("$db", DB)).firstIsNotCollection());
            cases.add(createRole());
            cases.add(new Case("logApplicationMessage", new BsonDocument("logApplicationMessage", planted.string())
                    .append("$db", ADMIN)).firstIsNotCollection());
            cases.add(new Case("eval", new BsonDocument("eval", planted.code()).append("args", array(planted.scalar(),
                    planted.scalar())).append("nolock", BsonBoolean.TRUE).append("$db", DB)).reply(Replies.ok(
                    new BsonDocument("retval", planted.scalar()))).firstIsNotCollection());
            cases.add(transaction("commitTransaction"));
            cases.add(transaction("abortTransaction"));
            cases.add(clientBulkWrite());
            for (String explained : new String[]{"aggregate", "count", "delete", "distinct", "find", "findAndModify",
                    "findandmodify", "mapReduce", "update"}) {
                cases.add(explain(explained));
            }
            cases.add(mapReduce());
        }
        return cases;
    }

    private Case createIndexes() {
        BsonDocument partial = new BsonDocument("key", new BsonDocument("email", new BsonInt32(1))).append("name",
                planted.string()).append("unique", BsonBoolean.TRUE).append("partialFilterExpression", data.filter())
                .append("collation", new BsonDocument("locale", planted.string()).append("strength", new BsonInt32(2)));
        BsonDocument text = new BsonDocument("key", new BsonDocument("name", new BsonString("text")))
                .append("name", planted.string()).append("weights", new BsonDocument("name", planted.int32()))
                .append("default_language", planted.string());
        BsonDocument wildcard = new BsonDocument("key", new BsonDocument("$**", new BsonInt32(1)))
                .append("name", new BsonString("wildcard_1")).append("wildcardProjection", new BsonDocument("email",
                        new BsonInt32(1)).append("score", planted.number()));
        BsonDocument command = new BsonDocument("createIndexes", new BsonString("users")).append("indexes",
                array(partial, text, wildcard)).append("commitQuorum", new BsonString("majority")).append("$db", DB);
        return new Case("createIndexes", command).reply(Replies.ok(new BsonDocument("numIndexesBefore", new BsonInt32(1))
                .append("numIndexesAfter", new BsonInt32(4)).append("createdCollectionAutomatically", BsonBoolean.FALSE)))
                .failure(failures.command());
    }

    private static BsonDocument role() {
        return new BsonDocument("role", new BsonString("readWrite")).append("db", DB);
    }

    private Case user(final String name) {
        BsonDocument command = new BsonDocument(name, planted.string()).append("pwd", planted.string())
                .append("customData", data.document(1)).append("roles", array(role())).append("$db", DB);
        return new Case(name, command).reply(Replies.ok(new BsonDocument())).failure(failures.command())
                .firstIsNotCollection();
    }

    private Case createRole() {
        BsonDocument privilege = new BsonDocument("resource", new BsonDocument("db", DB).append("collection",
                new BsonString("users"))).append("actions", array(new BsonString("find")));
        BsonDocument command = new BsonDocument("createRole", planted.string()).append("privileges", array(privilege))
                .append("roles", new BsonArray()).append("authenticationRestrictions", array(new BsonDocument(
                        "clientSource", array(planted.string())))).append("$db", DB);
        return new Case("createRole", command).firstIsNotCollection();
    }

    private Case transaction(final String name) {
        BsonDocument command = new BsonDocument(name, new BsonInt32(1)).append("lsid", Sessions.lsid())
                .append("txnNumber", new BsonInt64(7)).append("autocommit", BsonBoolean.FALSE)
                .append("writeConcern", new BsonDocument("w", new BsonString("majority"))).append("comment", planted.scalar())
                .append("$db", ADMIN);
        return new Case(name, command).reply(Replies.ok(new BsonDocument())).failure(failures.make(
                planted.chance(50) ? "command" : "writeConcern")).firstIsNotCollection();
    }

    private Case clientBulkWrite() {
        List<BsonDocument> ops = new ArrayList<>();
        ops.add(new BsonDocument("insert", new BsonInt32(0)).append("document", data.insertDocument()));
        ops.add(new BsonDocument("update", new BsonInt32(0)).append("filter", data.filter()).append("updateMods",
                planted.chance(50) ? data.update() : data.updatePipeline()).append("arrayFilters", data.arrayFilters())
                .append("upsert", BsonBoolean.TRUE).append("multi", BsonBoolean.FALSE));
        ops.add(new BsonDocument("update", new BsonInt32(1)).append("filter", data.filter()).append("updateMods",
                data.insertDocument()).append("multi", BsonBoolean.FALSE));
        ops.add(new BsonDocument("delete", new BsonInt32(1)).append("filter", data.filter()).append("multi",
                BsonBoolean.TRUE));
        List<BsonDocument> nsInfo = Arrays.asList(new BsonDocument("ns", new BsonString("shop.users")),
                new BsonDocument("ns", new BsonString("shop.orders")));
        BsonDocument top = new BsonDocument("bulkWrite", new BsonInt32(1)).append("errorsOnly", BsonBoolean.FALSE)
                .append("ordered", BsonBoolean.TRUE).append("let", data.let()).append("comment", planted.scalar())
                .append("$db", ADMIN);
        return new Case("bulkWrite", top, "ops", ops, "nsInfo", nsInfo).reply(replies.clientBulkWrite())
                .failure(failures.command()).firstIsNotCollection();
    }

    /** Every command the server explains, with a value in every place: read by its own rules inside {@code explain}. */
    private Case explain(final String explained) {
        BsonDocument inner = new BsonDocument(explained, new BsonString("users"));
        switch (explained) {
            case "find":
                inner.append("filter", data.filter()).append("projection", data.projection()).append("let", data.let());
                break;
            case "aggregate":
                inner.append("pipeline", pipelines.pipeline(Pipelines.ALL_STAGES, null)).append("cursor", new BsonDocument());
                break;
            case "count":
                inner.append("query", data.filter()).append("limit", new BsonInt32(5)).append("hint", planted.string());
                break;
            case "distinct":
                inner.append("key", new BsonString("email")).append("query", data.filter());
                break;
            case "findAndModify":
            case "findandmodify":
                inner.append("query", data.filter()).append("update", planted.chance(40) ? data.update()
                        : planted.chance(50) ? data.updatePipeline() : data.insertDocument())
                        .append("fields", data.projection()).append("new", BsonBoolean.TRUE)
                        .append("arrayFilters", data.arrayFilters()).append("let", data.let());
                break;
            case "update":
                inner.append("updates", array(new BsonDocument("q", data.filter()).append("u", planted.chance(50)
                        ? data.update() : data.updatePipeline()).append("upsert", BsonBoolean.TRUE)));
                break;
            case "delete":
                inner.append("deletes", array(new BsonDocument("q", data.filter()).append("limit", new BsonInt32(1))));
                break;
            default:
                inner.append("map", planted.code()).append("reduce", planted.code()).append("query", data.filter())
                        .append("scope", data.document(1)).append("out", new BsonDocument("inline", new BsonInt32(1)));
                break;
        }
        BsonDocument command = new BsonDocument("explain", inner).append("verbosity", new BsonString("queryPlanner"))
                .append("comment", planted.scalar()).append("$db", DB);
        return new Case("explain." + explained, command).reply(replies.explain(inner)).firstIsNotCollection();
    }

    private Case mapReduce() {
        BsonDocument command = new BsonDocument("mapReduce", new BsonString("users")).append("map", planted.code())
                .append("reduce", planted.code()).append("finalize", planted.codeWithScope()).append("query", data.filter())
                .append("sort", new BsonDocument("email", new BsonInt32(1))).append("scope", data.document(1))
                .append("out", new BsonDocument("inline", new BsonInt32(1))).append("$db", DB);
        return new Case("mapReduce", command).reply(replies.mapReduce()).failure(failures.command());
    }
}

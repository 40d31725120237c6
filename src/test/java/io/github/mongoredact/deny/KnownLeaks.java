package io.github.mongoredact.deny;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The planted values that leave the listener today under {@code RedactionPolicy.defaults()}, as patterns over
 * {@code family path} ({@code *}: one path step, {@code **}: anything), each with its reason. {@link DenyByDefaultTest}
 * fails on a leak no entry matches and on an entry that matches no leak: when a fix lands, remove its entries.
 */
final class KnownLeaks {
    static final String WIP = "fixed by issue 10 work in progress";

    /** One allowed leak pattern. */
    static final class Entry {
        final String pattern;
        final String reason;
        final Pattern regex;

        Entry(final String pattern, final String reason) {
            this.pattern = pattern;
            this.reason = reason;
            this.regex = glob(pattern);
        }

        boolean matches(final Leak leak) {
            return regex.matcher(leak.key()).matches();
        }
    }

    static final List<Entry> ENTRIES = new ArrayList<>();

    static {
        // 1. rules meant for server fields match user data at any depth
        add("** command.**.$literal.$**", "keys named like stages inside pipeline literals kept by the **.$limit/$skip/$sort/"
                + "$count/$out/$unwind/$sample/$lookup.*/$merge.*/$unionWith.*/$graphLookup.* rules");
        add("** command.documents[].meta.$**", "keys named like stages inside inserted documents kept by the **.$... rules");
        add("** command.**$documents[].$**", "keys named like stages inside $documents literals kept by the **.$... rules");
        add("** reply.**keyPattern**", "**.keyPattern kept inside batches and values: user documents with a keyPattern field");
        add("** reply.cursor.**errmsg", "**.errmsg inside batches is scrubbed, not redacted, and the scrubber keeps unquoted "
                + "values: user documents with an errmsg field");
        add("** reply.command.**errmsg", "**.errmsg inside the command an explain reply echoes is scrubbed, not redacted");
        // 2. kept metadata carries user values
        add("** command.**$merge.whenMatched[].**", "$merge.whenMatched pipelines kept whole");
        add("**createIndexes command.indexes[].name", "createIndexes.indexes kept whole: user-chosen index names");
        add("**createIndexes command.indexes[].collation.locale", "createIndexes.indexes kept whole: collation strings");
        add("**createIndexes command.indexes[].default_language", "createIndexes.indexes kept whole: text index language");
        add("**createIndexes command.indexes[].partialFilterExpression.**", "createIndexes.indexes kept whole: "
                + "partialFilterExpression values");
        add("**createIndexes command.indexes[].weights.*", "createIndexes.indexes kept whole: weights values");
        add("**createIndexes command.indexes[].wildcardProjection.*", "createIndexes.indexes kept whole: numbers in "
                + "wildcardProjection");
        add("** command.hint", "hint kept: a string hint is a user-chosen index name");
        add("** command.collation.locale", "collation kept whole: its strings");
        add("** command.projection.*", "projection values other than 0/1/true/false kept as flags");
        add("** command.fields.*", "findAndModify fields values other than 0/1/true/false kept as flags");
        for (String name : new String[]{"usersInfo", "dropUser", "grantRolesToUser", "createRole", "logApplicationMessage",
                "eval"}) {
            add(name + " command." + name, "the first field of every command is kept: here a user name, text or code");
            if (!name.equals("eval")) {
                add(name + " sink.getCollectionName()", "the collection name is the first string field of any command");
            }
        }
        // 3. the message scrubber misses unquoted values (numbers after ':', text after 'index N', apostrophes, plain text)
        add("** failure.getMessage()", "failure messages: unquoted values pass the scrubber; MongoExecutionTimeoutException "
                + "passes unchanged");
        add("** failure.toString()", "failure texts: unquoted values pass the scrubber; MongoExecutionTimeoutException "
                + "passes unchanged");
        add("** failure.getResponse().errmsg", "scrubbed errmsg of a rebuilt failure keeps unquoted values");
        add("** failure.getResponse().$err", "scrubbed $err of a rebuilt failure keeps unquoted values");
        add("** failure.getError().getMessage()", "scrubbed MongoWriteException message keeps unquoted values");
        add("** failure.getWriteErrors()[].getMessage()", "scrubbed bulk write error message keeps unquoted values");
        add("** failure.getWriteConcernError().getMessage()", "scrubbed write concern error message keeps plain text");
        add("** reply.writeConcernError.errmsg", "scrubbed writeConcernError.errmsg keeps plain text");
        // 4. failures that pass unchanged or half rebuilt
        add("** failure.getCause().**", "a wrapper whose cause is a MongoCommandException passes unchanged");
    }

    private KnownLeaks() {
    }

    private static void add(final String pattern, final String reason) {
        ENTRIES.add(new Entry(pattern, reason + "; " + WIP));
    }

    static Pattern glob(final String pattern) {
        StringBuilder regex = new StringBuilder();
        int i = 0;
        while (i < pattern.length()) {
            if (pattern.startsWith("**", i)) {
                regex.append(".*");
                i += 2;
            } else if (pattern.charAt(i) == '*') {
                regex.append("[^. ]*");
                i++;
            } else {
                int next = pattern.indexOf('*', i);
                int end = next < 0 ? pattern.length() : next;
                regex.append(Pattern.quote(pattern.substring(i, end)));
                i = end;
            }
        }
        return Pattern.compile(regex.toString());
    }
}

package io.github.mongoredact.internal.message;

import java.nio.charset.StandardCharsets;

/**
 * The words a server message may keep: the prose of the server's own messages (mongod's and the embedded server's), the
 * names of commands and the {@code $} operators. Anything else a message holds is a value to the scrubber. Matching is
 * ASCII case-insensitive and allocates nothing. Immutable and thread-safe.
 *
 * <p>Left out on purpose: {@code true}, {@code false}, {@code null} and every number (they are values wherever they
 * stand), and single letters other than {@code a} (a one-letter token is more likely a value than prose).</p>
 */
final class ServerMessageVocabulary {
    /** The word before {@code index} that makes a regular expression error quote the pattern after it. */
    static final int NEAR = 1;
    static final int INDEX = 2;
    static final int COLLECTION = 3;
    /** The code that makes {@code collection:} and {@code index:} introduce names (a duplicate key message). */
    static final int E11000 = 4;
    static final int OTHER = 5;
    static final int NONE = 0;

    /** Longer tokens are never words: they are not looked up. */
    static final int MAX_WORD = 40;
    /** Longer tokens are never names (namespaces, index names): a collection's namespace takes at most 255 bytes. */
    static final int MAX_NAME = 255;

    private static final String PROSE = "_id a abort aborted about above accept accepted accumulator active actual add adding additional"
            + " additionalproperties after against aggregate aggregation aggregations all allow allowdiskuse"
            + " allowed alphanumeric already also altered alternative an and another any apply applying are"
            + " argument arguments array arrayfilters arrays as ascending assertion at attempt attempted auth"
            + " authenticate authenticated authentication authorization authorized auto autoindexid available base"
            + " batch be because been before beginning being between bigdecimal bit boolean both boundaries"
            + " boundary bounded bracket branch bson bsonobj bug build buildinfo but by byte bytes calculate can"
            + " can't cannot canonicalize cant capped capturing caught cause caused change character characters"
            + " class clause client clients close closed closing code codes collation collection collections"
            + " collision collmod command commands comment commit committed compare concern concurrency"
            + " configuration conflict conflicting conflicts connection consider considered constructed consume"
            + " contain containing contains context conversion convert converted correspond could couldn't count"
            + " create created createindexes creating currently cursor cursors dangling data data-bearing database"
            + " databases date debug decimal128 default define defined delete deleted deprecated descending details"
            + " did didn't different disabled disabling disconnected disk distinct do document documentation"
            + " documents does doesn't dollar don't done down drop dropdatabase dropindexes dropping due dup"
            + " duplicate during e11000 each either element elements embedded empty enable enabled encode encoding"
            + " end ending ends enough entry enumeration equal error errors escape evaluate evaluates exactly"
            + " example exceeded except exception exclusion execute executor exhausted exist existed existing"
            + " exists expected expects expired explain explicitly exponent expression expressions external failed"
            + " failing fails failure few field fieldpath fields filter filters final find findandmodify first"
            + " fixed flag flags follow follows for format found free from full generated get getlasterror getmore"
            + " given got greater group groupby had handle happen has hash have having hello here hexadecimal"
            + " highest hint host i.e id identifier if ignoring illegal immutable implemented in in-progress inc"
            + " include inclusion incorrect index indexes inexact infer inline input inputs insert instead int"
            + " integer integral internal interrupted into invalid invoked is ismaster issue it it's item its join"
            + " key key-value keys kill killcursors killed killop kind large larger last least length less let"
            + " letter level limit limits listcollections listdatabases listindexes literal local long longer"
            + " look-behind lookbehind lowercase lowest majority many mapreduce master match matched matches"
            + " matching max maximum maxtimems may mechanism memory message meta minimum missing mode modes"
            + " modifier modifiers modify modifying multi multi-document multiple must name named names namespace"
            + " near need needed needs negative new no node nodes non-array non-empty non-existent non-numeric"
            + " non-zero none nonempty nonnegative nor not nothing ns number numbers numeric numerical object"
            + " objects obvious occurred octal of on one onerror only opcode open opened operands operate operation"
            + " operations operator operators opt optimize option options or order ordered other out output pairs"
            + " parallel parameter parenthesis parse parsing part pass passed path paths pattern pending performing"
            + " ping pipeline pipeline-style plan planexecutor planner please portion position positional positions"
            + " positive prefixed primary processing progress projection properties property provided purposes"
            + " quantifier query range read read-only readconcern reason recognized recovering refer reference"
            + " register regular remaining remove removing rename renamecollection renamed repeat repeatable"
            + " repetition replaced replacement replica replication reply report represented representing requested"
            + " require required requires reserved result resulting retry retryable return returned rounding rule"
            + " rules running same satisfied schema second secondary seconds section see sequence server session"
            + " sessions set shard should shutdown shutting single size skip slaveok sort sorted sorting source"
            + " specification specified specify specifying stage stages start started starting starts state status"
            + " step still string strings subcommand subpattern subtype such support supported supports symbol"
            + " syntax system takes target terminating termination text than that the there therefore this those"
            + " time timed timeout timestamp to too top top-level trailing transaction transactions traverse tried"
            + " twice two txnnumber type types unable unauthorized unclosed undefined unexpected unhandled unique"
            + " unknown unmatched unrecognised unrecognized unsatisfiable unscaled unspecified unsupported update"
            + " update's updates updating upsert use used user users using valid validate validation validator"
            + " value values variable variables verify view views waiting was wasn't were when where whether which"
            + " while whole will with within without won't works would write wrong wtimeout yet you your zero zone";

    /** The driver's own client-side wording, which rebuilt client failures keep ({@code Prematurely reached end of stream}). */
    private static final String DRIVER_PROSE = "prematurely reached stream socket opening receiving sending pool cleared cluster"
            + " servers selection ms";

    /** Code names ({@code codeName}), which messages quote as words ({@code caused by :: WriteConflict}). */
    private static final String CODE_NAMES = "authenticationfailed badvalue commandnotfound conflictingupdateoperators cursornotfound"
            + " documentvalidationfailure duplicatekey exceededtimelimit failedtoparse illegaloperation"
            + " immutablefield interruptedatshutdown invalidoptions maxtimemsexpired namespacenotfound"
            + " nosuchtransaction notprimarynosecondaryok notwritableprimary transienttransactionerror typemismatch"
            + " unsatisfiablewriteconcern writeconcernfailed writeconflict";

    private static final String OPERATORS = "$ $$descend $$keep $$now $$prune $$root $[] $abs $accumulator $add $addfields $addtoset"
            + " $all $and"
            + " $arrayelemat $avg $bit $bucket $bucketauto $changestream $collstats $concat $cond $convert $count"
            + " $currentdate $currentop $cursor $datefromstring $datetostring $densify $documents $each $elemmatch"
            + " $eq $exists $expr $facet $fill $filter $first $geointersects $geonear $geowithin $getfield"
            + " $graphlookup $group $gt $gte $ifnull $in $inc $indexstats $jsonschema $last $limit $listsessions"
            + " $lookup $lt $lte $map $match $max $merge $mergeobjects $meta $min $mod $mul $ne $near $nearsphere"
            + " $nin $nor $not $options $or $out $pop $position $project $pull $pullall $push $redact $reduce"
            + " $regex $rename $replaceroot $replacewith $sample $search $set $setfield $setoninsert"
            + " $setwindowfields $size $skip $slice $sort $sortbycount $split $substr $sum $switch $text $this"
            + " $tostring $type $unionwith $unset $unwind $value $vectorsearch $where";

    private static final WordTable WORDS = WordTable.of(PROSE + " " + DRIVER_PROSE + " " + CODE_NAMES);
    private static final WordTable OPERATOR_NAMES = WordTable.of(OPERATORS);
    private static final byte[] NEAR_WORD = ascii("near");
    private static final byte[] INDEX_WORD = ascii("index");
    private static final byte[] COLLECTION_WORD = ascii("collection");
    private static final byte[] E11000_WORD = ascii("e11000");

    private ServerMessageVocabulary() {
    }

    /**
     * @return {@link #NONE} when {@code src[from, to)} is not a word of the server's messages, otherwise the kind of word
     *     ({@link #NEAR}, {@link #INDEX}, {@link #COLLECTION}, {@link #E11000} or {@link #OTHER})
     */
    static int classify(final byte[] src, final int from, final int to) {
        int len = to - from;
        if (len <= 0 || len > MAX_WORD) {
            return NONE;
        }
        if (src[from] == '$') {
            return OPERATOR_NAMES.containsOrPossessive(src, from, to) ? OTHER : NONE;
        }
        if (!WORDS.containsOrPossessive(src, from, to)) {
            return NONE;
        }
        if (equalsIgnoreCase(NEAR_WORD, src, from, to)) {
            return NEAR;
        }
        if (equalsIgnoreCase(INDEX_WORD, src, from, to)) {
            return INDEX;
        }
        if (equalsIgnoreCase(COLLECTION_WORD, src, from, to)) {
            return COLLECTION;
        }
        return equalsIgnoreCase(E11000_WORD, src, from, to) ? E11000 : OTHER;
    }

    /** @return whether a quoted {@code src[from, to)} may stay: {@code _id} or an operator, never a value */
    static boolean isQuotableName(final byte[] src, final int from, final int to) {
        int len = to - from;
        if (len == 3 && src[from] == '_' && src[from + 1] == 'i' && src[from + 2] == 'd') {
            return true;
        }
        return len > 0 && len <= MAX_WORD && src[from] == '$' && OPERATOR_NAMES.contains(src, from, to);
    }

    /** @return whether {@code src[from, to)} is shaped like a field name: ASCII letters, digits, {@code _ $ . -} */
    static boolean isFieldName(final byte[] src, final int from, final int to) {
        if (to - from < 1 || to - from > 128) {
            return false;
        }
        byte first = src[from];
        return (isLetter(first) || first == '_' || first == '$') && allNameBytes(src, from, to, false);
    }

    /** @return whether {@code src[from, to)} is shaped like a namespace or index name (also {@code *}, digits first) */
    static boolean isMetadataName(final byte[] src, final int from, final int to) {
        return to - from >= 1 && to - from <= MAX_NAME && allNameBytes(src, from, to, true);
    }

    static boolean isLetter(final byte b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z');
    }

    private static boolean allNameBytes(final byte[] src, final int from, final int to, final boolean star) {
        for (int i = from; i < to; i++) {
            byte b = src[i];
            boolean ok = isLetter(b) || (b >= '0' && b <= '9') || b == '_' || b == '$' || b == '.' || b == '-'
                    || (star && b == '*');
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean equalsIgnoreCase(final byte[] entry, final byte[] src, final int from, final int to) {
        return WordTable.equalsIgnoreCase(entry, src, from, to);
    }

    private static byte[] ascii(final String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}

package io.github.mongoredact.internal.policy;

/**
 * The words the messages of the driver's own client-side exceptions may keep: the fixed words of the driver's message
 * templates (the string literals of the exceptions that {@code driver-core}, {@code bson}, {@code driver-sync} and
 * {@code driver-reactive-streams} throw), the words and enum names of its cluster and server descriptions
 * ({@code {type=UNKNOWN, servers=[{address=..., state=CONNECTING}]}}), and the units and count words that make a number a
 * time-out or a count. Left out on purpose: {@code true} and every number (values wherever they stand), single letters but
 * {@code a}, and the template words that are also common values of application data ({@code pending}, {@code closed},
 * {@code new}, {@code enabled}, {@code available}, {@code returned}, {@code completed}, {@code standard}): a status printed
 * into a message must not survive because a template happens to use the same word. Matching ignores ASCII case and
 * allocates nothing. Immutable and thread-safe.
 */
final class ClientMessageVocabulary {
    /** The templates' words, lower case. */
    private static final String WORDS =
            "a aborttransaction about acceptable access accessible added address after aggregation aggregations ahead"
            + " algorithm all allowed along already also an and annotated annotation another api arbiters are args argument"
            + " array as async asynchronous asynchronoussocketchannelstream at attempted attempting authenticating"
            + " authentication authmechanism authsource aws awscredential azure back bad balancing based baseelement"
            + " basicbsonlist be because been beginning being below between bigdecimal binary blocking bool boolean both"
            + " bounds bson bsonbinarysubtype bsonbinarywriter bsoncodec bsoncreator bsondocument bsondocumentwrapper"
            + " bsonextraelements bsonid bsoninput bsonreader bsonrepresentation bsontype bsonwriter buffer but by"
            + " bypassdocumentvalidation byte bytebufbsondocument bytes call callback called calling can can't cannot"
            + " canonicaladdress canonicalize cast causally caused change changestreamfulldocument channel character"
            + " characters chunk class client clients clientsession cluster clustertype code codec coerce collation"
            + " collationalternate collationcasefirst collationmaxvariable collection command commit committransaction"
            + " compared compatible composed compressor concern configured conflicting connect connected connecting"
            + " connection connections consistent construct constructor constructors contain contained container contains"
            + " context contextprovider contexttype convention conversion convert converted converting"
            + " coordinatereferencesystem coordinates correct could count counter create created creation credential"
            + " credentials cstring current currentbsontype currently cursor cursors custom dash data database databasename"
            + " date dbpointer dbrefcodec decimal declared decode decoder decoding decrement default delete dependency"
            + " deployment depth description detected direct directconnection directly disallowed discovery discriminator"
            + " dns do document documents does doesn't double driver dstindex due duplicate duplicated duration during"
            + " either elapse electionid element empty enclosed encode encoded encoder encoding encryptedfields encryption"
            + " encryptor end endofdocument endpoint enough ensure environment eof equal error errored escape even exactly"
            + " exceeded exception exists expected expecting expireafter expiresin explain explicit exponent expression"
            + " extension extra factory failed field fieldname fields file filename files fill filters find finish first"
            + " fit flag flags float for format found four frequency from fromindex full fulldocumentbeforechange"
            + " functionality generic geojson geometries geometry geometrycollection get gethintbsonvalue getter getting"
            + " got graalvm granularity greater gridfs group gssapi handshake handshaking happen has have heartbeat hedge"
            + " hex hexadecimal hint host hostname hosts id identifier idgenerator idproperty if illegal image immutable"
            + " implement implementation implemented impossible in incompatible inconsistent incorrect increment index"
            + " indexes indication inencrypted inexact infinite infinity info information initial initialization initialize"
            + " initializing inline input inputstream insert instance instances instant instead int integer integers"
            + " interface interrupted into invalid invalidated invariant invoke involved ioexception is it item iterable"
            + " iteration its java javax jndi json key keys kms larger last lastwritedate later latter least legacy length"
            + " less level library lifetime limit linestring list listed load load_balanced load_balancer loadbalanced"
            + " localdate localdatetime locate lock logicalsessiontimeoutminutes login long longer looking losing make"
            + " malformed many map mapped mapping maps mark marked marker marking master match max maxdocumentsize maximum"
            + " maxwireversion may mechanism merge message metadata method methods micrometer milliseconds mimimum minimum"
            + " minwireversion mismatch mismatching missing mode moment mongocryptd mongodb more mqlexpression ms multi"
            + " multilinestring multiple multipoint multipolygon must name named namedcoordinatereferencesystem names"
            + " namespace native negative negotiated negotiation neither netty never newer next no non nonce none not null"
            + " number numberlong numeric numerical object objectid observability obtain occupied octal of ok oldbinary"
            + " older on one only opcode opening operation operations operationtimeout option options or ordered other out"
            + " output outputstream parameter parameterized parameters parse parsing passives password password's passwords"
            + " past path payload performing period permitted pipeline platform please point polygon pool pooled pop port"
            + " position positive precision preference prematurely primary private process progress prohibited properties"
            + " property propertymodel protocol provide provided provider proxy proxyhost proxypassword proxyport"
            + " proxyusername public queryable quorum range rawbsondocument reached reactive read readable readconcernlevel"
            + " reader reading reads received receiving recognized record records ref reference regular regularexpression"
            + " remaining remote removal renegotiation replace replacements replica replica_set replica_set_arbiter"
            + " replica_set_ghost replica_set_other replica_set_primary replica_set_secondary replicaset reply"
            + " representation representationconfigurable represented request requests require required requires reset"
            + " resolve resolved response result results resume retriever retryable return revision"
            + " rewrapmanydatakeyoptions root roundedvalue rounding roundtriptime runtime sasl scope sec seconds"
            + " secretaccesskey selection selector selectors sending sent sequence serialization serialize server servers"
            + " session sessions set setname sets setter settings setversion shard_router sharded short should shutdown"
            + " sign signature since single size sizes slot small snapshot so socket socks some sort sortdocument source"
            + " spans specialised specification specified specifies specify specifying srv srvhost srvmaxhosts"
            + " srvservicename ssl sslcontext sslengine sslinvalidhostnameallowed sslsocket stage stale staleness"
            + " standalone start started starting state status steps stream strength string stringcodec style subject"
            + " subtype suffix supplied supplier support supported sync system tag tags tailable terminated than that the"
            + " there this three thrown time timed timeout timeoutmode timeoutms timeouts timepoint timepoints timestamp"
            + " timestamps tls tlsallowinvalidhostnames tlschannelstream tlsinsecure to toindex token too topologyversion"
            + " trampoline transaction transactions transport trying twice two type types unable unacknowledged unassigned"
            + " undefined unexpected unhandled unixserveraddress unknown unrecognized unscaled unspecified unsupported"
            + " until unwrap up update upload use used user username username's using uuid uuidrepresentation valid"
            + " validationaction validationlevel validator value values vector verbose verbosity version via violated"
            + " waiting was were when while whole wire with within without work would wrapping writable write writeconcern"
            + " writemodel writes writing written wrong yet you zero";

    /** Units after a number that make it a time-out. */
    private static final String UNITS = "ms millis millisecond milliseconds s sec secs second seconds ns nanosecond nanoseconds"
            + " us microseconds minute minutes";
    /** Words before a number that make it a count, a size or a limit. */
    private static final String COUNT_BEFORE = "of than least most max maximum size length limit count exceeded exceeds after"
            + " within timeout timeoutms port";
    /** Words after a number that make it a count. */
    private static final String COUNT_AFTER = "bytes documents connections operations servers times attempts elements";

    static final WordTable TEMPLATE_WORDS = WordTable.of(WORDS);
    static final WordTable TIME_UNITS = WordTable.of(UNITS);
    static final WordTable COUNTS_BEFORE = WordTable.of(COUNT_BEFORE);
    static final WordTable COUNTS_AFTER = WordTable.of(COUNT_AFTER);

    private ClientMessageVocabulary() {
    }
}

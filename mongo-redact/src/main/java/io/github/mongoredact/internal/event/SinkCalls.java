package io.github.mongoredact.internal.event;

/**
 * How {@link Downstream} calls a sink, whose interface the API declares: implemented in the API package, so that this package
 * uses none of the API's types. Stateless; each call is the sink's own method of the same name.
 *
 * @param <K> the sinks
 * @param <S> the facts of a started command
 * @param <C> the facts of a completed command
 */
public interface SinkCalls<K, S, C> {

    /** @return whether the sink needs owned documents for the next event */
    boolean needsDocuments(K sink);

    /** @return whether the sink needs the owned reply of the next succeeded event */
    boolean needsReplyDocuments(K sink);

    /** @return whether the sink reads the fingerprint of the next started event */
    boolean needsFingerprint(K sink);

    /** @return whether the sink reads the query shape of the next started event */
    boolean needsQueryShape(K sink);

    /** @return whether the sink reads the size of the next started command */
    boolean needsCommandSize(K sink);

    /** Hands a start to the sink. */
    void started(K sink, S command);

    /** Hands a completion to the sink. */
    void completed(K sink, C command);
}

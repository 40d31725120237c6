package io.github.mongoredact;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A sink that keeps what it is handed and asks for the documents it is told to (a test may answer more by overriding). */
public class RecordingSink implements CommandSink {
    public final List<StartedCommand> started = Collections.synchronizedList(new ArrayList<>());
    public final List<CompletedCommand> completed = Collections.synchronizedList(new ArrayList<>());
    private final boolean documents;
    private final boolean replies;
    private final boolean fingerprint;

    /**
     * @param documents its answer to {@link #needsDocuments()}
     * @param replies its answer to {@link #needsReplyDocuments()}
     */
    public RecordingSink(final boolean documents, final boolean replies) {
        this(documents, replies, true);
    }

    /**
     * @param documents its answer to {@link #needsDocuments()}
     * @param replies its answer to {@link #needsReplyDocuments()}
     * @param fingerprint its answer to {@link #needsFingerprint()}
     */
    public RecordingSink(final boolean documents, final boolean replies, final boolean fingerprint) {
        this.documents = documents;
        this.replies = replies;
        this.fingerprint = fingerprint;
    }

    @Override
    public boolean needsFingerprint() {
        return fingerprint;
    }

    @Override
    public boolean needsDocuments() {
        return documents;
    }

    @Override
    public boolean needsReplyDocuments() {
        return replies;
    }

    @Override
    public void started(final StartedCommand command) {
        started.add(command);
    }

    @Override
    public void completed(final CompletedCommand command) {
        completed.add(command);
    }
}

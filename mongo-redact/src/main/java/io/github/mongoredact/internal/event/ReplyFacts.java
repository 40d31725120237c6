package io.github.mongoredact.internal.event;

import com.mongodb.lang.Nullable;

/**
 * What the listener reads from a succeeded command's reply for sinks, from the driver's reply in one pass over its top level,
 * without a copy. Valid only during the call it is handed to: the facts of a {@code CompletedCommand} are taken out of it.
 */
public interface ReplyFacts {

    /** @return the size in bytes of the reply as received, 0 when not known */
    int size();

    /** @return the code of the first write error or write concern error under {@code ok: 1}, 0 when there is none */
    int errorCode();

    /** @return that error's code name, or null */
    @Nullable
    String errorCodeName();

    /** @return the reply's {@code cursor.id} where it is not 0 and the redacted copy of the reply shows it, else 0 */
    long cursorId();
}

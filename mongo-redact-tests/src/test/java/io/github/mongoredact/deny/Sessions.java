package io.github.mongoredact.deny;

import org.bson.BsonBinary;
import org.bson.BsonDocument;

import java.util.UUID;

/** Session ids as the driver sends them: metadata, never planted. */
final class Sessions {
    private Sessions() {
    }

    static BsonDocument lsid() {
        return new BsonDocument("id", new BsonBinary(UUID.fromString("6f1c2a4e-0b7d-4c1e-9a55-3d2e8f7a9b10")));
    }
}

package io.github.mongoredact.internal.rules;

/** Holds the collection-name cache all threads share ({@link CollectionNames#shared()}); the cache's own tests make others. */
final class SharedCollectionNames {
    static final CollectionNames INSTANCE = new CollectionNames();

    private SharedCollectionNames() {
    }
}

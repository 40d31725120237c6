package io.github.mongoredact.deny;

/** A planted value found where it left the listener: which family, where (a path with array positions as []), what kind. */
final class Leak {
    final String family;
    final String path;
    final String kind;
    final String example;

    Leak(final String family, final String path, final String kind, final String example) {
        this.family = family;
        this.path = path;
        this.kind = kind;
        this.example = example;
    }

    /** @return the text KnownLeaks patterns are matched against: {@code family path} */
    String key() {
        return family + " " + path;
    }

    @Override
    public String toString() {
        return key() + " (" + kind + "): " + example;
    }
}

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
        // none: every leak the generator found is fixed (issue 10); an entry added here must name its reason
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

package io.github.mongoredact.spring;

/**
 * The edit distance of two names: the fewest insertions, deletions, substitutions and swaps of two neighbouring characters
 * that turn one into the other (the optimal string alignment distance), so that {@code polcy} is 1 from {@code policy}, and
 * so is {@code poilcy}. Stateless and thread-safe.
 */
final class EditDistance {
    private EditDistance() {
    }

    static int between(final String a, final String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    best = Math.min(best, d[i - 2][j - 2] + 1);
                }
                d[i][j] = best;
            }
        }
        return d[a.length()][b.length()];
    }
}

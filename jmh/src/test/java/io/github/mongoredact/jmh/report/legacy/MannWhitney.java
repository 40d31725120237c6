package io.github.mongoredact.jmh.report.legacy;

import java.util.Arrays;

/**
 * The two-sided Mann-Whitney U test, as benchstat uses to decide whether two sets of iterations differ: exact when the
 * samples are small and have no ties, otherwise the normal approximation with tie and continuity corrections.
 */
public final class MannWhitney {
    private MannWhitney() {
    }

    /**
     * @param a the first sample
     * @param b the second sample
     * @return the two-sided p-value, 1 when either sample is empty
     */
    public static double pValue(final double[] a, final double[] b) {
        int n1 = a.length;
        int n2 = b.length;
        if (n1 == 0 || n2 == 0) {
            return 1.0;
        }
        double[] all = new double[n1 + n2];
        System.arraycopy(a, 0, all, 0, n1);
        System.arraycopy(b, 0, all, n1, n2);
        double[] sorted = all.clone();
        Arrays.sort(sorted);
        // mid-ranks, and the tie correction term
        double rankSumA = 0;
        for (double x : a) {
            rankSumA += midRank(sorted, x);
        }
        double tieTerm = 0;
        boolean ties = false;
        for (int i = 0; i < sorted.length; ) {
            int j = i;
            while (j < sorted.length && sorted[j] == sorted[i]) {
                j++;
            }
            int t = j - i;
            if (t > 1) {
                ties = true;
                tieTerm += (double) t * t * t - t;
            }
            i = j;
        }
        double u1 = rankSumA - n1 * (n1 + 1) / 2.0;
        if (!ties && n1 * n2 <= 2500) {
            return exact(u1, n1, n2);
        }
        double n = n1 + n2;
        double mean = n1 * n2 / 2.0;
        double variance = n1 * n2 / 12.0 * ((n + 1) - tieTerm / (n * (n - 1)));
        if (variance <= 0) {
            return 1.0;
        }
        double z = (Math.abs(u1 - mean) - 0.5) / Math.sqrt(variance);
        return Math.min(1.0, 2 * (1 - normalCdf(Math.max(0, z))));
    }

    private static double midRank(final double[] sorted, final double x) {
        int lo = 0;
        while (sorted[lo] < x) {
            lo++;
        }
        int hi = lo;
        while (hi + 1 < sorted.length && sorted[hi + 1] == x) {
            hi++;
        }
        return (lo + hi) / 2.0 + 1;
    }

    /** Exact two-sided p from the distribution of U under the null hypothesis. */
    static double exact(final double u, final int n1, final int n2) {
        int max = n1 * n2;
        // counts[m][k]: arrangements of m x's among (m + n) with U = k, built up over n
        double[][] prev = new double[n1 + 1][];
        for (int m = 0; m <= n1; m++) {
            prev[m] = new double[max + 1];
            prev[m][0] = 1; // n = 0: only U = 0
        }
        for (int n = 1; n <= n2; n++) {
            double[][] cur = new double[n1 + 1][max + 1];
            cur[0][0] = 1;
            for (int m = 1; m <= n1; m++) {
                for (int k = 0; k <= m * n; k++) {
                    // the largest element is an x (it beats all n y's: adds n to U) or a y (adds nothing)
                    double v = k - n >= 0 ? cur[m - 1][k - n] : 0;
                    v += prev[m][k];
                    cur[m][k] = v;
                }
            }
            prev = cur;
        }
        double[] dist = prev[n1];
        double total = 0;
        for (double d : dist) {
            total += d;
        }
        int k = (int) Math.round(u);
        double lower = 0;
        double upper = 0;
        for (int i = 0; i <= max; i++) {
            if (i <= k) {
                lower += dist[i];
            }
            if (i >= k) {
                upper += dist[i];
            }
        }
        return Math.min(1.0, 2 * Math.min(lower, upper) / total);
    }

    /** The standard normal CDF (Abramowitz and Stegun 7.1.26 through erf). */
    static double normalCdf(final double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
                * Math.exp(-x * x);
        return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
    }
}

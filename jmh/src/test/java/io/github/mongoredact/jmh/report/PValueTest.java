package io.github.mongoredact.jmh.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PValueTest {

    @Test
    void separatedSamplesOfFiveGiveTheExactMinimumP() {
        // 2 arrangements of 252 are this extreme: p = 2/252
        assertEquals(2.0 / 252, Report.pValue(new double[]{1, 2, 3, 4, 5}, new double[]{6, 7, 8, 9, 10}), 1e-12);
        assertEquals(2.0 / 252, Report.pValue(new double[]{6, 7, 8, 9, 10}, new double[]{1, 2, 3, 4, 5}), 1e-12);
    }

    @Test
    void interleavedSamplesAreNotSignificant() {
        // U = 10 of 25; scipy.stats.mannwhitneyu(..., method="exact") gives 0.6905
        assertEquals(0.690476, Report.pValue(new double[]{1, 3, 5, 7, 9}, new double[]{2, 4, 6, 8, 10}), 1e-6);
    }

    @Test
    void threeAgainstThreeCanNeverReachFivePercent() {
        assertEquals(0.1, Report.pValue(new double[]{1, 2, 3}, new double[]{4, 5, 6}), 1e-12);
    }

    @Test
    void tiesUseTheNormalApproximation() {
        double p = Report.pValue(new double[]{1, 1, 2, 3, 4}, new double[]{5, 6, 6, 7, 8});
        assertTrue(p < 0.05 && p > 0.005, "p=" + p);
        assertEquals(1.0, Report.pValue(new double[]{3, 3, 3}, new double[]{3, 3, 3}), 1e-12);
    }
}

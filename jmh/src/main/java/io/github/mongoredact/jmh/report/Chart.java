package io.github.mongoredact.jmh.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.text.TextUtils;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.svg.SVGGraphics2D;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Charts of B/op against the sequence (or batch) size, drawn by JFreeChart into SVG by JFreeSVG: one chart per method that
 * has a size parameter, one panel per parameter group, one line per subject (the same color in every chart). The size axis
 * is categorical (0, 1, 5, 10, 100, 1000), B/op is on a log scale.
 */
final class Chart {
    private static final String[] COLORS = {"#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int PANEL_W = 560;
    private static final int PANEL_H = 420;
    private static final int TITLE_H = 36;

    static {
        // the rotated axis label as SVG text rather than glyph outlines
        TextUtils.setUseDrawRotatedStringWorkaround(false);
    }

    private Chart() {
    }

    /** @return file stem (the method) to SVG text */
    static Map<String, String> charts(final List<Report.Row> rows) {
        Map<String, List<Report.Row>> byMethod = new LinkedHashMap<>();
        for (Report.Row r : rows) {
            if (!r.size().isEmpty() && !Double.isNaN(r.bytes)) {
                byMethod.computeIfAbsent(r.method, k -> new ArrayList<>()).add(r);
            }
        }
        Map<String, String> charts = new LinkedHashMap<>();
        byMethod.forEach((method, list) -> charts.put(method, svg(method, list)));
        return charts;
    }

    private static String svg(final String method, final List<Report.Row> rows) {
        Map<String, List<Report.Row>> panels = new LinkedHashMap<>();
        for (Report.Row r : rows) {
            panels.computeIfAbsent(r.group().isEmpty() ? "all" : r.group(), k -> new ArrayList<>()).add(r);
        }
        int columns = Math.min(2, panels.size());
        int panelRows = (panels.size() + columns - 1) / columns;
        SVGGraphics2D g = new SVGGraphics2D(columns * PANEL_W, panelRows * PANEL_H + TITLE_H);
        g.setDefsKeyPrefix(method + "-"); // the same SVG for the same figures
        g.setGeomDoubleConverter(v -> String.valueOf(Math.round(v * 10) / 10.0)); // a tenth of a pixel
        draw(g, method, rows, panels, columns);
        return g.getSVGDocument() + "\n";
    }

    private static void draw(final Graphics2D g, final String method, final List<Report.Row> rows,
                             final Map<String, List<Report.Row>> panels, final int columns) {
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, columns * PANEL_W, (panels.size() + columns - 1) / columns * PANEL_H + TITLE_H);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(method + ": B/op by " + rows.get(0).sizeName() + " (log scale)", 10, 24);
        int i = 0;
        for (Map.Entry<String, List<Report.Row>> panel : panels.entrySet()) {
            panel(panel.getKey(), panel.getValue()).draw(g,
                    new Rectangle(i % columns * PANEL_W, TITLE_H + i / columns * PANEL_H, PANEL_W, PANEL_H));
            i++;
        }
    }

    private static JFreeChart panel(final String title, final List<Report.Row> rows) {
        List<Report.Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparingDouble((Report.Row r) -> Double.parseDouble(r.size()))
                .thenComparingInt(r -> Report.subjectIndex(r.subject)));
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (Report.Row r : sorted) {
            data.addValue(Math.max(1, r.bytes), r.subject, r.size());
        }
        LineAndShapeRenderer lines = new LineAndShapeRenderer(true, true);
        lines.setDefaultStroke(new BasicStroke(2));
        lines.setAutoPopulateSeriesStroke(false);
        lines.setDrawOutlines(false);
        for (int s = 0; s < data.getRowCount(); s++) {
            lines.setSeriesPaint(s, color((String) data.getRowKey(s)));
        }
        LogarithmicAxis bytes = new LogarithmicAxis("B/op");
        bytes.setAutoRangeNextLogFlag(true);
        bytes.setTickMarksVisible(false); // the grid lines show them
        bytes.setNumberFormatOverride(new DecimalFormat("#,##0"));
        CategoryPlot plot = new CategoryPlot(data, new CategoryAxis(rows.get(0).sizeName()), bytes, lines);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 14), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    /** The same color for a subject in every chart. */
    static Color color(final String subject) {
        return Color.decode(COLORS[Report.subjectIndex(subject) % COLORS.length]);
    }
}

package io.github.mongoredact.jmh.report.legacy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * SVG charts of B/op against the sequence (or batch) size, one line per subject, one panel per parameter group, one chart per
 * method that has a size parameter. The size axis is categorical (0, 1, 5, 10, 100, 1000), B/op is on a log scale.
 */
final class Chart {
    private static final String[] COLORS = {"#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int PANEL_W = 420;
    private static final int PANEL_H = 300;
    private static final int MARGIN_L = 70;
    private static final int MARGIN_T = 40;
    private static final int MARGIN_B = 50;
    private static final int LEGEND_W = 170;

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
        for (Map.Entry<String, List<Report.Row>> e : byMethod.entrySet()) {
            charts.put(e.getKey(), svg(e.getKey(), e.getValue()));
        }
        return charts;
    }

    private static String svg(final String method, final List<Report.Row> rows) {
        Map<String, List<Report.Row>> panels = new LinkedHashMap<>();
        Set<String> subjects = new LinkedHashSet<>();
        for (Report.Row r : rows) {
            panels.computeIfAbsent(r.group(), k -> new ArrayList<>()).add(r);
        }
        List<String> ordered = new ArrayList<>();
        for (Report.Row r : rows) {
            if (!ordered.contains(r.subject)) {
                ordered.add(r.subject);
            }
        }
        ordered.sort((a, b) -> Integer.compare(Report.subjectIndex(a), Report.subjectIndex(b)));
        subjects.addAll(ordered);
        int columns = Math.min(2, panels.size());
        int panelRows = (panels.size() + columns - 1) / columns;
        int cellW = MARGIN_L + PANEL_W + 30;
        int cellH = MARGIN_T + PANEL_H + MARGIN_B;
        int width = columns * cellW + LEGEND_W;
        int height = panelRows * cellH + 40;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"24\" font-size=\"16\" font-weight=\"bold\">%s: B/op by %s"
                + " (log scale)</text>%n", escape(method), escape(rows.get(0).sizeName())));
        int index = 0;
        for (Map.Entry<String, List<Report.Row>> panel : panels.entrySet()) {
            int x0 = (index % columns) * cellW + MARGIN_L;
            int y0 = (index / columns) * cellH + MARGIN_T + 30;
            panel(svg, panel.getKey(), panel.getValue(), new ArrayList<>(subjects), x0, y0);
            index++;
        }
        int lx = columns * cellW;
        int ly = MARGIN_T + 40;
        List<String> list = new ArrayList<>(subjects);
        for (int i = 0; i < list.size(); i++) {
            String color = color(list.get(i));
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>"
                    + "<text x=\"%d\" y=\"%d\">%s</text>%n", lx, ly + i * 20, lx + 24, ly + i * 20, color, lx + 30,
                    ly + i * 20 + 4, escape(list.get(i))));
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static void panel(final StringBuilder svg, final String title, final List<Report.Row> rows,
                              final List<String> subjects, final int x0, final int y0) {
        List<String> sizes = new ArrayList<>();
        double min = Double.MAX_VALUE;
        double max = 0;
        for (Report.Row r : rows) {
            if (!sizes.contains(r.size())) {
                sizes.add(r.size());
            }
            min = Math.min(min, Math.max(1, r.bytes));
            max = Math.max(max, Math.max(1, r.bytes));
        }
        sizes.sort((a, b) -> Double.compare(Double.parseDouble(a), Double.parseDouble(b)));
        double lo = Math.floor(Math.log10(min));
        double hi = Math.max(lo + 1, Math.ceil(Math.log10(max)));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", x0, y0 - 10,
                escape(title.isEmpty() ? "all" : title)));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>%n",
                x0, y0, PANEL_W, PANEL_H));
        for (int d = (int) lo; d <= (int) hi; d++) {
            double y = y(Math.pow(10, d), lo, hi, y0);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", x0, y, x0 + PANEL_W, y, x0 - 6, y + 4,
                    tick(d)));
        }
        for (int i = 0; i < sizes.size(); i++) {
            double x = x(i, sizes.size(), x0);
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x,
                    y0 + PANEL_H + 18, escape(sizes.get(i))));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x0 + PANEL_W / 2,
                y0 + PANEL_H + 38, escape(rows.get(0).sizeName())));
        for (int s = 0; s < subjects.size(); s++) {
            StringBuilder points = new StringBuilder();
            StringBuilder dots = new StringBuilder();
            String color = color(subjects.get(s));
            for (int i = 0; i < sizes.size(); i++) {
                for (Report.Row r : rows) {
                    if (r.subject.equals(subjects.get(s)) && r.size().equals(sizes.get(i))) {
                        double x = x(i, sizes.size(), x0);
                        double y = y(Math.max(1, r.bytes), lo, hi, y0);
                        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                        dots.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">"
                                + "<title>%s %s=%s: %.0f B/op</title></circle>%n", x, y, color, escape(r.subject),
                                escape(r.sizeName()), escape(r.size()), r.bytes));
                    }
                }
            }
            if (points.length() > 0) {
                svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>%n",
                        color, points.toString().trim()));
                svg.append(dots);
            }
        }
    }

    /** The same color for a subject in every chart. */
    static String color(final String subject) {
        return COLORS[Report.subjectIndex(subject) % COLORS.length];
    }

    /** A decimal label for 10^d bytes: 100 B, 1 kB, 10 kB, ... */
    static String tick(final int d) {
        String[] units = {"B", "kB", "MB", "GB"};
        int unit = Math.max(0, Math.min(units.length - 1, d / 3));
        return (long) Math.pow(10, d - unit * 3) + " " + units[unit];
    }

    private static double x(final int i, final int n, final int x0) {
        return x0 + 30 + (n == 1 ? 0 : i * (PANEL_W - 60.0) / (n - 1));
    }

    private static double y(final double value, final double lo, final double hi, final int y0) {
        return y0 + PANEL_H - (Math.log10(value) - lo) / (hi - lo) * PANEL_H;
    }

    private static String escape(final String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}

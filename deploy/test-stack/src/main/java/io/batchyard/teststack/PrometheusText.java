package io.batchyard.teststack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Reads what {@code /q/metrics} serves, as a scraper does, so that tests assert on a meter the way an operator's
 * Prometheus would see it. A sample line is {@code name{label="value",...} value [timestamp] [# exemplar]}: the labels
 * are optional, a label value may hold escaped quotes, commas and braces, and the registry may append a timestamp and
 * an exemplar ({@code # {span_id="…",trace_id="…"} 1.0 1700000000.000}) once tracing is on. Comment lines
 * ({@code # HELP}, {@code # TYPE}, {@code # EOF}) carry no samples.
 */
public final class PrometheusText {

    /** One sample: the series' name, its labels in the order given, and its value. */
    public record Sample(String name, Map<String, String> labels, double value) {

        /** Whether every pair of {@code labels} (name, value, name, value, …) is among this sample's labels. */
        public boolean has(String... labels) {
            if (labels.length % 2 != 0) {
                throw new IllegalArgumentException("labels come in name, value pairs: " + List.of(labels));
            }
            for (int i = 0; i < labels.length; i += 2) {
                if (!labels[i + 1].equals(this.labels.get(labels[i]))) {
                    return false;
                }
            }
            return true;
        }
    }

    private PrometheusText() {
    }

    /** Every sample of the exposition, in order. A line that is not a sample fails: the test should see it. */
    public static List<Sample> parse(String exposition) {
        List<Sample> samples = new ArrayList<>();
        for (String line : exposition.split("\n")) {
            String l = line.strip();
            if (!l.isEmpty() && !l.startsWith("#")) {
                samples.add(sample(l));
            }
        }
        return samples;
    }

    /**
     * The sum of {@code name}'s samples whose labels include {@code labels} (name, value, …): a counter without a
     * filter on every label is summed over the rest. Empty when no such sample exists (a meter never registered is
     * not the same as one at 0).
     */
    public static OptionalDouble sum(String exposition, String name, String... labels) {
        boolean found = false;
        double sum = 0;
        for (Sample s : parse(exposition)) {
            if (s.name().equals(name) && s.has(labels)) {
                found = true;
                sum += s.value();
            }
        }
        return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }

    /** {@link #sum}, failing the test when there is no such sample. */
    public static double value(String exposition, String name, String... labels) {
        return sum(exposition, name, labels).orElseThrow(() -> new AssertionError("no sample " + name
                + (labels.length == 0 ? "" : " with labels " + List.of(labels)) + " in the metrics"));
    }

    /** {@link #sum}, or 0 when there is no such sample (a counter that has not counted yet may not be exported). */
    public static double valueOrZero(String exposition, String name, String... labels) {
        return sum(exposition, name, labels).orElse(0);
    }

    private static Sample sample(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
            i++;
        }
        String name = line.substring(0, i);
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i = labels(line, i + 1, labels);
        }
        String rest = line.substring(i).strip();
        int end = rest.indexOf(' ');
        String value = end < 0 ? rest : rest.substring(0, end);
        if (name.isEmpty() || value.isEmpty()) {
            throw new IllegalArgumentException("not a sample line: " + line);
        }
        return new Sample(name, labels, number(value, line));
    }

    /** Reads {@code a="x",b="y"} up to the closing brace into {@code into}; returns the index after the brace. */
    private static int labels(String line, int from, Map<String, String> into) {
        int i = from;
        while (true) {
            while (i < line.length() && (line.charAt(i) == ',' || line.charAt(i) == ' ')) {
                i++;
            }
            if (i >= line.length()) {
                throw new IllegalArgumentException("unclosed labels: " + line);
            }
            if (line.charAt(i) == '}') {
                return i + 1;
            }
            int eq = line.indexOf('=', i);
            if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
                throw new IllegalArgumentException("bad label at " + i + ": " + line);
            }
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            for (; j < line.length() && line.charAt(j) != '"'; j++) {
                char c = line.charAt(j);
                if (c == '\\' && j + 1 < line.length()) {
                    char next = line.charAt(++j);
                    value.append(next == 'n' ? '\n' : next);
                } else {
                    value.append(c);
                }
            }
            if (j >= line.length()) {
                throw new IllegalArgumentException("unclosed label value: " + line);
            }
            into.put(line.substring(i, eq).strip(), value.toString());
            i = j + 1;
        }
    }

    private static double number(String text, String line) {
        return switch (text) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> {
                try {
                    yield Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a sample value in: " + line, e);
                }
            }
        };
    }
}

package io.batchyard.cli;

import java.util.ArrayList;
import java.util.List;

/** Left-aligned columns for people; an empty table says so instead of printing only its header. */
final class Table {

    private final String[] header;
    private final List<String[]> rows = new ArrayList<>();

    private Table(String[] header) {
        this.header = header;
    }

    static Table of(String... header) {
        return new Table(header);
    }

    Table rows(List<Object[]> values) {
        for (Object[] v : values) {
            String[] r = new String[header.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = i < v.length && v[i] != null ? String.valueOf(v[i]) : "-";
            }
            rows.add(r);
        }
        return this;
    }

    String render() {
        if (rows.isEmpty()) {
            return "(none)";
        }
        int[] width = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            width[i] = header[i].length();
            for (String[] r : rows) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        append(b, header, width);
        rows.forEach(r -> append(b.append('\n'), r, width));
        return b.toString();
    }

    private static void append(StringBuilder b, String[] cells, int[] width) {
        for (int i = 0; i < cells.length; i++) {
            b.append(i == cells.length - 1 ? cells[i] : String.format("%-" + width[i] + "s  ", cells[i]));
        }
    }
}

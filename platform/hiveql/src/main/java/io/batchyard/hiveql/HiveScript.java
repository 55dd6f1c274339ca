package io.batchyard.hiveql;

import java.util.ArrayList;
import java.util.List;

/**
 * A HiveQL script as its statements, read the way Hive's own command line reads one: a {@code ;} ends a statement
 * only outside quotes, and comments are not part of any statement. lineage-service parses what it registers with it,
 * and the Hive hook splits what Hive hands it with it, so both agree on what one statement is.
 */
public final class HiveScript {

    private HiveScript() {
    }

    /**
     * The statements of {@code text}, in order: {@code --} (to the end of the line) and {@code /* ... *}{@code /}
     * comments removed, split on {@code ;} outside {@code '...'}, {@code "..."} and {@code `...`} (a backslash escapes
     * the next character inside the first two), each statement's whitespace runs (line breaks of any kind included)
     * made one space and trimmed, and empty statements dropped. A comment marker inside quotes is text; an unclosed
     * quote or block comment runs to the end of the text.
     */
    public static List<String> statements(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            char next = i + 1 < text.length() ? text.charAt(i + 1) : 0;
            if (quote != 0) {
                current.append(c);
                if (c == '\\' && quote != '`' && next != 0) {
                    current.append(next);
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
                current.append(c);
            } else if (c == '-' && next == '-') {
                // To the end of its line, the last line included; the line break itself still separates words.
                int eol = text.indexOf('\n', i);
                i = eol < 0 ? text.length() : eol - 1;
                current.append(' ');
            } else if (c == '/' && next == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? text.length() : end + 1;
                current.append(' ');
            } else if (c == ';') {
                add(out, current);
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        add(out, current);
        return out;
    }

    private static void add(List<String> out, StringBuilder statement) {
        String s = statement.toString().replaceAll("\\s+", " ").trim();
        if (!s.isEmpty()) {
            out.add(s);
        }
    }
}

package io.batchyard.lineage.openlineage;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which clauses of the statements read a column, for the subtypes of OpenLineage's INDIRECT transformations. The
 * column graph keeps only that a column decides rows (an indirect relation), not where it was read, so the
 * statements as they ran are scanned word by word: ON is a join, WHERE and HAVING filter, GROUP BY groups, ORDER/SORT/
 * CLUSTER/DISTRIBUTE BY sort, OVER (...) is a window and CASE ... END or IF (...) a condition. A column is matched by
 * its name, bare or behind a qualifier, so two tables' columns of one name in one statement are not told apart.
 */
final class ClauseScan {

    enum Subtype { JOIN, FILTER, GROUP_BY, SORT, WINDOW, CONDITIONAL }

    private static final Pattern TOKEN = Pattern.compile(
            "'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"|[A-Za-z_][A-Za-z0-9_]*(?:\\s*\\.\\s*`?[A-Za-z_][A-Za-z0-9_]*`?)*"
                    + "|`[^`]+`(?:\\s*\\.\\s*`?[A-Za-z_][A-Za-z0-9_]*`?)*|[()]");

    private ClauseScan() {
    }

    static Set<Subtype> of(List<String> statements, String column) {
        Set<Subtype> found = EnumSet.noneOf(Subtype.class);
        String wanted = column.toLowerCase(Locale.ROOT);
        statements.forEach(s -> scan(s, wanted, found));
        return found;
    }

    private static void scan(String sql, String column, Set<Subtype> found) {
        Matcher m = TOKEN.matcher(sql);
        Subtype clause = null;
        int depth = 0;
        String previous = "";
        // depths at which an OVER (...) window or an IF (...) condition closes, and open CASE ... END blocks
        Deque<Integer> windows = new ArrayDeque<>();
        Deque<Integer> conditions = new ArrayDeque<>();
        int cases = 0;
        boolean overPending = false;
        boolean ifPending = false;
        while (m.find()) {
            String token = m.group();
            if (token.startsWith("'") || token.startsWith("\"")) {
                previous = "";
                continue;
            }
            String word = token.replace("`", "").replaceAll("\\s+", "").toLowerCase(Locale.ROOT);
            switch (word) {
                case "(" -> {
                    depth++;
                    if (overPending) {
                        windows.push(depth);
                    }
                    if (ifPending) {
                        conditions.push(depth);
                    }
                    overPending = false;
                    ifPending = false;
                }
                case ")" -> {
                    if (!windows.isEmpty() && windows.peek() == depth) {
                        windows.pop();
                    }
                    if (!conditions.isEmpty() && conditions.peek() == depth) {
                        conditions.pop();
                    }
                    depth--;
                }
                case "on" -> clause = Subtype.JOIN;
                case "where", "having" -> clause = Subtype.FILTER;
                case "by" -> clause = switch (previous) {
                    case "group" -> Subtype.GROUP_BY;
                    case "order", "sort", "cluster", "distribute" -> Subtype.SORT;
                    default -> clause;
                };
                case "select", "from", "join", "insert", "union", "limit", "lateral", "table" -> clause = null;
                case "over" -> overPending = true;
                case "if" -> ifPending = true;
                case "case" -> cases++;
                case "end" -> cases = Math.max(0, cases - 1);
                default -> {
                    if (word.equals(column) || word.endsWith("." + column)) {
                        if (!windows.isEmpty()) {
                            found.add(Subtype.WINDOW);
                        } else if (clause != null) {
                            found.add(clause);
                        }
                        if (cases > 0 || !conditions.isEmpty()) {
                            found.add(Subtype.CONDITIONAL);
                        }
                    }
                }
            }
            if (!"(".equals(word)) {
                overPending = overPending && "over".equals(word);
                ifPending = ifPending && "if".equals(word);
            }
            previous = word;
        }
    }
}

package io.batchyard.lineage.column;

import io.batchyard.hiveql.HiveScript;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Brings HiveQL into the dialect JSqlParser reads, without changing what the statement reads and writes. JSqlParser
 * already handles {@code INSERT OVERWRITE TABLE t PARTITION (...)}, backticks and {@code LATERAL VIEW}; this class
 * only covers what it does not:
 * <ul>
 *   <li>comments and the split into statements (on ';' outside quotes, unlike the reference's naive split), by
 *       {@link HiveScript}, which the Hive hook splits with too;</li>
 *   <li>{@code CREATE [TEMPORARY] [EXTERNAL] TABLE} with Hive storage clauses: the clauses are dropped and
 *       {@code PARTITIONED BY} columns are appended to the column list, since they are real columns of the table;</li>
 *   <li>{@code DISTRIBUTE BY} is dropped and {@code SORT BY}/{@code CLUSTER BY} become {@code ORDER BY}: they only
 *       order rows, never move data between columns;</li>
 *   <li>statements without column lineage (SET, ADD JAR, DROP, ...) are skipped instead of parsed;</li>
 *   <li>complex column types ({@code MAP<...>}, {@code STRUCT<...>}) in CREATE TABLE become STRING;</li>
 *   <li>{@code LEFT ANTI JOIN} becomes {@code LEFT JOIN} (same lineage);</li>
 *   <li>Hive multi-insert ({@code FROM src INSERT ... SELECT ... INSERT ... SELECT ...}) becomes one
 *       {@code INSERT ... SELECT ... FROM src ...} per target, each keeping its own WHERE, GROUP BY, ...: that is what
 *       it means (the source is read once, each target gets its own projection), so every target gets its own
 *       column lineage. {@code FROM src SELECT ...} becomes {@code SELECT ... FROM src}.</li>
 * </ul>
 */
public final class HiveSqlNormaliser {

    /** What to do with one statement. */
    public sealed interface Normalised {
    }

    public record Parse(String sql) implements Normalised {
    }

    public record Use(String database) implements Normalised {
    }

    public record Skip(String keyword) implements Normalised {
    }

    public record Unsupported(String reason) implements Normalised {
    }

    /** A multi-insert: one statement per target, in the order written. */
    public record MultiInsert(List<String> inserts) implements Normalised {
    }

    private static final Set<String> NO_LINEAGE = Set.of("set", "reset", "add", "delete", "drop", "alter", "msck",
            "analyze", "load", "describe", "desc", "show", "truncate", "refresh", "invalidate", "explain", "grant",
            "revoke", "dfs", "compute", "list", "reload", "export", "import");

    private static final Pattern CREATE_TABLE = Pattern.compile(
            "^CREATE\\s+(?:TEMPORARY\\s+)?(?:EXTERNAL\\s+)?TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?([`\\w.]+)\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern AS_QUERY = Pattern.compile("\\bAS\\s*\\(?\\s*(SELECT|WITH)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern PARTITIONED_BY = Pattern.compile("\\bPARTITIONED\\s+BY\\s*\\(", Pattern.CASE_INSENSITIVE);
    private static final Pattern DISTRIBUTE_BY = Pattern.compile(
            "\\bDISTRIBUTE\\s+BY\\s+.*?(?=\\bSORT\\s+BY\\b|\\bORDER\\s+BY\\b|\\bLIMIT\\b|\\bUNION\\b|\\)|$)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern ANTI_JOIN = Pattern.compile("\\bLEFT\\s+ANTI\\s+JOIN\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern COMPLEX_TYPE = Pattern.compile("\\b(?:MAP|ARRAY|STRUCT|UNIONTYPE)\\s*<",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern SORT_BY = Pattern.compile("\\b(?:SORT|CLUSTER)\\s+BY\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern INSERT = Pattern.compile("\\bINSERT\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern SELECT = Pattern.compile("\\bSELECT\\b", Pattern.CASE_INSENSITIVE);
    /** The clauses that follow a select list; a multi-insert's FROM goes in front of the first of them. */
    private static final Pattern AFTER_SELECT_LIST = Pattern.compile(
            "\\b(?:WHERE|GROUP\\s+BY|HAVING|WINDOW|ORDER\\s+BY|SORT\\s+BY|DISTRIBUTE\\s+BY|CLUSTER\\s+BY|LIMIT)\\b",
            Pattern.CASE_INSENSITIVE);

    private HiveSqlNormaliser() {
    }

    /** Statements of a script: comments removed, split on ';' outside quotes, blank ones dropped. */
    public static List<String> statements(String text) {
        return HiveScript.statements(text);
    }

    /** Decides how to treat one statement and rewrites its Hive-only parts. */
    public static Normalised normalise(String statement) {
        String first = statement.split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
        if (first.equals("use")) {
            String[] words = statement.trim().split("\\s+");
            return new Use(unquote(words[words.length - 1]).toLowerCase(Locale.ROOT));
        }
        if (NO_LINEAGE.contains(first)) {
            return new Skip(first);
        }
        if (first.equals("from")) {
            List<String> inserts = multiInsert(statement);
            return inserts.isEmpty()
                    ? new Unsupported("FROM ... without an INSERT ... SELECT or SELECT after its source")
                    : new MultiInsert(inserts.stream().map(HiveSqlNormaliser::rewrite).toList());
        }
        String sql = statement;
        if (first.equals("create")) {
            sql = createTable(sql);
        }
        return new Parse(rewrite(sql));
    }

    /** The Hive-only clauses JSqlParser does not read, rewritten into what it does, with the same lineage. */
    private static String rewrite(String sql) {
        sql = DISTRIBUTE_BY.matcher(sql).replaceAll(" ");
        sql = SORT_BY.matcher(sql).replaceAll("ORDER BY");
        // LEFT ANTI JOIN (Hive 3) reads the right side only in ON, exactly like LEFT JOIN does for lineage.
        sql = ANTI_JOIN.matcher(sql).replaceAll("LEFT JOIN");
        return sql.replaceAll("\\s+", " ").trim();
    }

    /**
     * {@code FROM src INSERT ... SELECT a WHERE x INSERT ... SELECT b} into {@code INSERT ... SELECT a FROM src WHERE x}
     * and {@code INSERT ... SELECT b FROM src}; empty when no INSERT or SELECT follows the source. Only keywords
     * outside parentheses and quotes count, so sub-queries in the source or the select lists stay whole.
     */
    static List<String> multiInsert(String statement) {
        int[] depth = depths(statement);
        List<Integer> starts = topLevel(statement, INSERT, depth, 0);
        if (starts.isEmpty()) {
            starts = topLevel(statement, SELECT, depth, 0).stream().limit(1).toList();
        }
        if (starts.isEmpty()) {
            return List.of();
        }
        String source = statement.substring("from".length(), starts.get(0)).trim();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < starts.size(); i++) {
            int start = starts.get(i);
            int end = i + 1 < starts.size() ? starts.get(i + 1) : statement.length();
            List<Integer> select = topLevel(statement.substring(0, end), SELECT, depth, start);
            if (select.isEmpty() || source.isEmpty()) {
                return List.of();
            }
            List<Integer> clause = topLevel(statement.substring(0, end), AFTER_SELECT_LIST, depth, select.get(0));
            int at = clause.isEmpty() ? end : clause.get(0);
            out.add((statement.substring(start, at).trim() + " FROM " + source + " " + statement.substring(at, end).trim())
                    .trim());
        }
        return out;
    }

    /** Where {@code pattern} matches in {@code s} from {@code from} on, outside parentheses and quotes. */
    private static List<Integer> topLevel(String s, Pattern pattern, int[] depth, int from) {
        List<Integer> out = new ArrayList<>();
        Matcher m = pattern.matcher(s);
        while (m.find(from)) {
            if (depth[m.start()] == 0) {
                out.add(m.start());
            }
            from = m.end();
        }
        return out;
    }

    /** Parenthesis depth at each character; -1 inside quotes. */
    private static int[] depths(String s) {
        int[] depth = new int[s.length() + 1];
        int level = 0;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                depth[i] = -1;
                if (c == '\\' && quote != '`' && i + 1 < s.length()) {
                    depth[++i] = -1;
                } else if (c == quote) {
                    quote = 0;
                }
                continue;
            }
            if (c == '\'' || c == '"' || c == '`') {
                quote = c;
                depth[i] = -1;
                continue;
            }
            if (c == ')') {
                level--;
            }
            depth[i] = level;
            if (c == '(') {
                level++;
            }
        }
        depth[s.length()] = level;
        return depth;
    }

    /** {@code CREATE [TEMPORARY] [EXTERNAL] TABLE t (cols) PARTITIONED BY (p) STORED AS ... [AS SELECT ...]}. */
    private static String createTable(String sql) {
        Matcher m = CREATE_TABLE.matcher(sql);
        if (!m.find()) {
            return sql;
        }
        String head = "CREATE TABLE " + m.group(1) + " ";
        String rest = sql.substring(m.end());
        String columns = null;
        if (rest.startsWith("(")) {
            int close = closing(rest, 0);
            if (close < 0) {
                return sql;
            }
            columns = rest.substring(1, close);
            rest = rest.substring(close + 1);
        }
        Matcher p = PARTITIONED_BY.matcher(rest);
        if (columns != null && p.find()) {
            int open = p.end() - 1;
            int close = closing(rest, open);
            if (close > open) {
                columns = columns + ", " + rest.substring(open + 1, close);
            }
        }
        Matcher q = AS_QUERY.matcher(rest);
        String query = q.find() ? " " + rest.substring(q.start()) : "";
        return head + (columns == null ? "" : "(" + simpleTypes(stripColumnComments(columns)) + ")") + query;
    }

    /** Hive allows {@code col type COMMENT '...'}; the comment says nothing about lineage. */
    private static String stripColumnComments(String columns) {
        return columns.replaceAll("(?i)\\s+COMMENT\\s+'(?:[^'\\\\]|\\\\.)*'", "");
    }

    /** {@code MAP<STRING,INT>}, {@code STRUCT<x:INT>}, ... become STRING: only column names matter for lineage. */
    private static String simpleTypes(String columns) {
        StringBuilder out = new StringBuilder();
        Matcher m = COMPLEX_TYPE.matcher(columns);
        int from = 0;
        while (m.find(from)) {
            int depth = 0;
            int end = m.end() - 1;
            for (; end < columns.length(); end++) {
                char c = columns.charAt(end);
                if (c == '<') {
                    depth++;
                } else if (c == '>' && --depth == 0) {
                    break;
                }
            }
            out.append(columns, from, m.start()).append("STRING");
            from = Math.min(end + 1, columns.length());
        }
        return out.append(columns.substring(from)).toString();
    }

    private static int closing(String s, int open) {
        int depth = 0;
        char quote = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** {@code `name`} or {@code "name"} to {@code name}. */
    public static String unquote(String identifier) {
        if (identifier == null) {
            return null;
        }
        String s = identifier.trim();
        if (s.length() >= 2 && (s.charAt(0) == '`' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0)) {
            return s.substring(1, s.length() - 1);
        }
        return s;
    }
}

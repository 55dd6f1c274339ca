package io.batchyard.lineage.column;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;

/**
 * Column lineage of HiveQL/SQL text. Pure: no database, no Hive; table columns come from {@link TableSchemas} plus
 * CREATE TABLE statements earlier in the same text.
 *
 * <p>Every query block (the statement, each sub-query, CTE and lateral view) writes one table: the INSERT/CREATE
 * target, or a temporary table named by its alias ({@code _result} for a bare SELECT). Its select items become edges
 * into that table's columns: a plain column directly, a literal through a constant node, anything else (function,
 * CASE, CAST, arithmetic, window) through one function node fed by every column inside it. Select items map to
 * a target's columns by position when those are known (Hive INSERT is positional), else by their label.
 *
 * <p>Fixes of the reference: a column inside a function keeps its own table alias (it was bound to the first input
 * table); unreferenced columns of inputs with known columns become idle columns; columns read in JOIN ... ON, WHERE,
 * GROUP BY or HAVING (not captured by the reference) become indirect edges into the block's target table.
 */
public final class ColumnLineageExtractor {

    public static final String DEFAULT_DATABASE = "default";

    public QueryLineage extract(String text, String defaultDatabase, TableSchemas schemas) {
        Map<String, List<String>> learned = new HashMap<>();
        TableSchemas overlay = name -> Optional.ofNullable(learned.get(name)).or(() -> schemas.columns(name));
        String database = defaultDatabase == null || defaultDatabase.isBlank() ? DEFAULT_DATABASE
                : defaultDatabase.toLowerCase(Locale.ROOT);
        List<StatementLineage> out = new ArrayList<>();
        int index = 0;
        for (String statement : HiveSqlNormaliser.statements(text)) {
            index++;
            HiveSqlNormaliser.Normalised n = HiveSqlNormaliser.normalise(statement);
            if (n instanceof HiveSqlNormaliser.Use use) {
                database = use.database();
                out.add(empty(index, statement, List.of()));
            } else if (n instanceof HiveSqlNormaliser.Skip skip) {
                out.add(empty(index, statement, List.of(skip.keyword().toUpperCase(Locale.ROOT) + " has no column lineage")));
            } else if (n instanceof HiveSqlNormaliser.Unsupported u) {
                out.add(StatementLineage.failed(index, statement, u.reason()));
            } else if (n instanceof HiveSqlNormaliser.Parse p) {
                StatementLineage lineage = parse(index, p.sql(), database, overlay);
                if (lineage.learnedTable() != null) {
                    learned.put(lineage.learnedTable(), lineage.learnedColumns());
                }
                out.add(lineage);
            }
        }
        return new QueryLineage(out);
    }

    private static StatementLineage empty(int index, String sql, List<String> warnings) {
        return new StatementLineage(index, sql, List.of(), List.of(), warnings, null, null, null);
    }

    private StatementLineage parse(int index, String sql, String database, TableSchemas schemas) {
        Statement statement;
        try {
            statement = CCJSqlParserUtil.parse(sql);
        } catch (JSQLParserException | RuntimeException e) {
            return StatementLineage.failed(index, sql, parseError(e));
        }
        try {
            return new StatementWalk(index, sql, database, schemas).statement(statement);
        } catch (RuntimeException e) {
            // A construct the walk does not understand must not lose the query: it is stored with this error.
            return StatementLineage.failed(index, sql, "unsupported construct: " + e.getMessage());
        }
    }

    /**
     * JSqlParser wraps the grammar's ParseException, whose first line says where it failed ("Encountered unexpected
     * token ... at line 1, column 8"); the expected-token list after it is dropped.
     */
    private static String parseError(Exception e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage().strip();
        String head = message.split("\n")[0].strip();
        return "parse error: " + (head.length() > 400 ? head.substring(0, 400) + "..." : head);
    }
}

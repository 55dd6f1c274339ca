package io.batchyard.lineage.column;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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

    /** Statements every Hive script has around its queries: skipped without a warning. */
    private static final Set<String> EXPECTED_SETUP = Set.of("set", "reset", "add");

    public QueryLineage extract(String text, String defaultDatabase, TableSchemas schemas) {
        return extract(text, defaultDatabase, Map.of(), schemas);
    }

    /**
     * @param variables the registration's variable values ({@link HiveVariables}); the script's own SET statements
     *                  add to them for the statements that follow
     */
    public QueryLineage extract(String text, String defaultDatabase, Map<String, String> variables,
                                TableSchemas schemas) {
        Map<String, List<String>> learned = new HashMap<>();
        TableSchemas overlay = name -> Optional.ofNullable(learned.get(name)).or(() -> schemas.columns(name));
        HiveVariables values = new HiveVariables(variables);
        String database = defaultDatabase == null || defaultDatabase.isBlank() ? DEFAULT_DATABASE
                : defaultDatabase.toLowerCase(Locale.ROOT);
        List<StatementLineage> out = new ArrayList<>();
        int index = 0;
        for (String written : HiveSqlNormaliser.statements(text)) {
            index++;
            HiveVariables.Substituted substituted = values.substitute(written);
            String statement = substituted.text();
            List<String> warnings = substituted.unresolved().stream().distinct()
                    .map(v -> "variable " + v + " has no value: read as an opaque name or literal").toList();
            HiveSqlNormaliser.Normalised n = HiveSqlNormaliser.normalise(statement);
            if (substituted.tooLong()) {
                out.add(StatementLineage.failed(index, statement, database, warnings, "its variables' values make it "
                        + "longer than " + HiveVariables.MAX_LENGTH + " characters: not substituted, not parsed"));
            } else if (n instanceof HiveSqlNormaliser.Use use) {
                database = use.database();
                out.add(StatementLineage.skipped(index, statement, database, warnings));
            } else if (n instanceof HiveSqlNormaliser.Skip skip) {
                if (skip.keyword().equals("set")) {
                    values.define(statement);
                }
                out.add(StatementLineage.skipped(index, statement, database, EXPECTED_SETUP.contains(skip.keyword())
                        ? warnings : append(warnings, skip.keyword().toUpperCase(Locale.ROOT) + " has no column lineage")));
            } else if (n instanceof HiveSqlNormaliser.Unsupported u) {
                out.add(StatementLineage.failed(index, statement, database, warnings, u.reason()));
            } else {
                List<String> parts = n instanceof HiveSqlNormaliser.MultiInsert multi ? multi.inserts()
                        : List.of(((HiveSqlNormaliser.Parse) n).sql());
                StatementLineage lineage = parse(index, statement, parts, database, overlay).warnedFirst(warnings);
                if (lineage.learnedTable() != null) {
                    learned.put(lineage.learnedTable(), lineage.learnedColumns());
                }
                out.add(lineage);
            }
        }
        return new QueryLineage(out);
    }

    private static List<String> append(List<String> list, String item) {
        List<String> out = new ArrayList<>(list);
        out.add(item);
        return out;
    }

    /** @param parts what JSqlParser reads: the statement rewritten, or one insert per target of a multi-insert */
    private StatementLineage parse(int index, String statement, List<String> parts, String database,
                                  TableSchemas schemas) {
        List<Statement> parsed = new ArrayList<>();
        for (String sql : parts) {
            try {
                parsed.add(CCJSqlParserUtil.parse(sql));
            } catch (JSQLParserException | RuntimeException e) {
                return StatementLineage.failed(index, statement, database, List.of(), parseError(e));
            }
        }
        try {
            return new StatementWalk(index, statement, database, schemas).statements(parsed);
        } catch (RuntimeException e) {
            // A construct the walk does not understand must not lose the query: it is stored with this error.
            return StatementLineage.failed(index, statement, database, List.of(), "unsupported construct: " + e.getMessage());
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

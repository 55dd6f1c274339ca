package io.batchyard.lineage.column;

import java.util.List;
import java.util.Map;

/**
 * What one statement of a registered query contributes: its tables, column edges and warnings, or the reason it
 * could not be parsed. {@code learnedTable}/{@code learnedColumns} are set by CREATE TABLE (and CTAS/VIEW), so later
 * statements and queries can expand {@code *} and find idle columns. {@code sql} is the statement as written, with
 * its comments removed and its variables substituted; {@code database} is the default database in force for it.
 * {@code skipped} marks a statement without lineage (USE, SET, ADD JAR, DROP, ...): it is applied to the statements
 * after it or ignored, and is not one of the script's lineage statements.
 */
public record StatementLineage(int index, String sql, List<TableUse> tables, List<ColumnEdge> edges,
                               List<String> warnings, String learnedTable, List<String> learnedColumns,
                               Map<String, String> learnedTypes, String error,
                               String database, boolean skipped) {

    static StatementLineage failed(int index, String sql, String database, List<String> warnings, String error) {
        return new StatementLineage(index, sql, List.of(), List.of(), warnings, null, null, Map.of(), error, database, false);
    }

    static StatementLineage skipped(int index, String sql, String database, List<String> warnings) {
        return new StatementLineage(index, sql, List.of(), List.of(), warnings, null, null, Map.of(), null, database, true);
    }

    /** The same lineage with {@code first} in front of its warnings. */
    StatementLineage warnedFirst(List<String> first) {
        if (first.isEmpty()) {
            return this;
        }
        List<String> all = new java.util.ArrayList<>(first);
        all.addAll(warnings);
        return new StatementLineage(index, sql, tables, edges, List.copyOf(all), learnedTable, learnedColumns, learnedTypes, error,
                database, skipped);
    }

    public boolean parsed() {
        return error == null;
    }
}

package io.batchyard.lineage.column;

import java.util.List;

/**
 * What one statement of a registered query contributes: its tables, column edges and warnings, or the reason it
 * could not be parsed. {@code learnedTable}/{@code learnedColumns} are set by CREATE TABLE (and CTAS/VIEW), so later
 * statements and queries can expand {@code *} and find idle columns.
 */
public record StatementLineage(int index, String sql, List<TableUse> tables, List<ColumnEdge> edges,
                               List<String> warnings, String learnedTable, List<String> learnedColumns, String error) {

    static StatementLineage failed(int index, String sql, String error) {
        return new StatementLineage(index, sql, List.of(), List.of(), List.of(), null, null, error);
    }

    public boolean parsed() {
        return error == null;
    }
}

package io.batchyard.lineage.column;

import io.batchyard.persistence.Columns;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A table one statement reads or writes. {@code knownColumns} is null when no schema is known (no registered table
 * schema, no earlier CREATE TABLE); then no idle columns can be derived for it.
 */
public record TableUse(String name, boolean temp, boolean output, List<String> knownColumns, Set<String> usedColumns) {

    static TableUse of(String name, boolean temp, boolean output, List<String> knownColumns) {
        return new TableUse(name, temp, output, knownColumns, new LinkedHashSet<>());
    }

    /**
     * Columns of an input base table that the statement never references (node type 5). The reference designed this
     * but never called it; here it is real. Temporary tables and outputs have none.
     */
    public List<String> idleColumns() {
        if (temp || output || knownColumns == null) {
            return List.of();
        }
        return knownColumns.stream().filter(c -> !usedColumns.contains(c)).toList();
    }
}

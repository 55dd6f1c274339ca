package io.batchyard.lineage.graph;

import java.util.List;
import java.util.Set;
import java.util.UUID;

/** Everything downstream of a table: the columns, tables, processes and queries that depend on it. */
public record Impact(String table, List<ColumnRef> columns, Set<String> tables, Set<Long> processes,
                     Set<UUID> queries, ColumnGraph graph) {

    public record ColumnRef(String table, String column) {
    }
}

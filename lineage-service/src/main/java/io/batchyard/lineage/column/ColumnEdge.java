package io.batchyard.lineage.column;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Data flows from {@code from} into {@code to}. An indirect edge goes from a column read in a JOIN ... ON, WHERE,
 * HAVING, GROUP BY, ORDER BY, window or CASE/IF condition to the table whose rows it decides (the reference did not
 * capture these); {@code clauses} says in which of those clauses the statement read it (empty for a direct edge),
 * one edge per column and table however many clauses read it.
 */
public record ColumnEdge(Endpoint from, Endpoint to, boolean indirect, Set<IndirectClause> clauses) {

    public ColumnEdge {
        clauses = clauses.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(clauses));
    }

    public ColumnEdge(Endpoint from, Endpoint to) {
        this(from, to, false, Set.of());
    }

    public static ColumnEdge indirect(Endpoint from, Endpoint table, Set<IndirectClause> clauses) {
        return new ColumnEdge(from, table, true, clauses);
    }

    public String notation() {
        return (indirect ? "indirect " : "") + from.notation() + " -> " + to.notation();
    }
}

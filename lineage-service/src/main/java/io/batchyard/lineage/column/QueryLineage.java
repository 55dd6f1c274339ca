package io.batchyard.lineage.column;

import java.util.List;
import java.util.stream.Collectors;

/** Lineage of every statement of one registered query text, in order. */
public record QueryLineage(List<StatementLineage> statements) {

    public boolean failed() {
        return statements.stream().anyMatch(s -> !s.parsed());
    }

    /** One line per failed statement, e.g. {@code statement 2: Encountered unexpected token ...}. */
    public String errorSummary() {
        return statements.stream().filter(s -> !s.parsed())
                .map(s -> "statement " + s.index() + ": " + s.error())
                .collect(Collectors.joining("\n"));
    }

    public List<ColumnEdge> edges() {
        return statements.stream().flatMap(s -> s.edges().stream()).toList();
    }

    public List<String> warnings() {
        return statements.stream().flatMap(s -> s.warnings().stream().map(w -> "statement " + s.index() + ": " + w))
                .toList();
    }
}

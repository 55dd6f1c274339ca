package io.batchyard.lineage.column;

/**
 * Data flows from {@code from} into {@code to}. An indirect edge goes from a column read in JOIN ... ON, WHERE,
 * GROUP BY or HAVING to the table it decides the rows of; the reference did not capture these (spec 7.21).
 */
public record ColumnEdge(Endpoint from, Endpoint to, boolean indirect) {

    public ColumnEdge(Endpoint from, Endpoint to) {
        this(from, to, false);
    }

    public String notation() {
        return (indirect ? "indirect " : "") + from.notation() + " -> " + to.notation();
    }
}

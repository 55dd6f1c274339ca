package io.batchyard.lineage.graph;

import java.util.List;
import java.util.UUID;

/** A piece of the column graph: nodes (with their table for columns) and the relations between them. */
public record ColumnGraph(List<Node> nodes, List<Edge> edges) {

    /** {@code table}/{@code tableId} are set for columns (their container); {@code temp} for temporary tables. */
    public record Node(long id, String key, NodeType type, String name, Long tableId, String table, Integer order,
                       boolean temp) {
    }

    /**
     * One relation, with the query (and so the process and run) that created it. {@code indirect}: a column read in
     * JOIN/WHERE/GROUP BY/HAVING into the table ({@code to}) whose rows it decides.
     */
    public record Edge(UUID id, long from, long to, UUID queryId, long processId, Long instanceExecId,
                       boolean indirect) {
    }
}

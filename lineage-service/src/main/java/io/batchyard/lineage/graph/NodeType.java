package io.batchyard.lineage.graph;

/** The reference's LINEAGE_NODE types (ids as in its master table). */
public enum NodeType {
    TABLE(1), COLUMN(2), FUNCTION(3), TEMP_TABLE(4), IDLE_COLUMN(5), CONSTANT(6);

    private final int id;

    NodeType(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    public static NodeType of(int id) {
        for (NodeType t : values()) {
            if (t.id == id) {
                return t;
            }
        }
        throw new IllegalArgumentException("node type " + id);
    }

    public boolean isColumn() {
        return this == COLUMN || this == IDLE_COLUMN;
    }
}

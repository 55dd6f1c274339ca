package io.batchyard.registry.catalog;

/**
 * The master tables that are plain id/label lists. The names are fixed here, never taken from a request, so the
 * repository may put them into its SQL.
 */
public enum MasterTable {
    WORKFLOW_TYPES("workflow_type", "workflow_type_id", "workflow_type_name"),
    EXEC_STATES("exec_status", "exec_state_id", "description"),
    BATCH_STATES("batch_status", "batch_state_id", "description"),
    DEPLOY_STATUSES("deploy_status", "deploy_status_id", "description"),
    PERMISSION_TYPES("permission_type", "permission_type_id", "permission_type_name"),
    LINEAGE_NODE_TYPES("lineage_node_type", "node_type_id", "node_type_name"),
    LINEAGE_QUERY_TYPES("lineage_query_type", "query_type_id", "query_type_name");

    final String table;
    final String idColumn;
    final String nameColumn;

    MasterTable(String table, String idColumn, String nameColumn) {
        this.table = table;
        this.idColumn = idColumn;
        this.nameColumn = nameColumn;
    }
}

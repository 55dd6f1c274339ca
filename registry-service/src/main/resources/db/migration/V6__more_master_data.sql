-- More master data, as seeded by the reference: deployment-queue states, permission types (Unix-like bits), and the
-- node and query types of lineage. Read-only over the API; only migrations write these tables.

CREATE TABLE deploy_status (
    deploy_status_id SMALLINT PRIMARY KEY,
    description      TEXT     NOT NULL UNIQUE
);

CREATE TABLE permission_type (
    -- Read 4, write 2, execute 1: only the combinations below are used.
    permission_type_id   SMALLINT PRIMARY KEY CHECK (permission_type_id IN (0, 4, 6, 7)),
    permission_type_name TEXT     NOT NULL UNIQUE
);

CREATE TABLE lineage_node_type (
    node_type_id   SMALLINT PRIMARY KEY,
    node_type_name TEXT     NOT NULL UNIQUE
);

CREATE TABLE lineage_query_type (
    query_type_id   SMALLINT PRIMARY KEY,
    query_type_name TEXT     NOT NULL UNIQUE
);

INSERT INTO deploy_status (deploy_status_id, description) VALUES
    (1, 'Not started'), (2, 'Running'), (3, 'Success'), (4, 'Fail'), (5, 'Picked');

INSERT INTO permission_type (permission_type_id, permission_type_name) VALUES
    (0, 'No Permission'), (4, 'Read'), (6, 'Read and Write'), (7, 'Read,Write and Execute');

INSERT INTO lineage_node_type (node_type_id, node_type_name) VALUES
    (1, 'table'), (2, 'column'), (3, 'function'), (4, 'temp_table'), (5, 'idle_column'), (6, 'constant');

INSERT INTO lineage_query_type (query_type_id, query_type_name) VALUES
    (1, 'HIVE'), (2, 'PIG');

-- An application's permissions are permission types: the table, not only a CHECK, now says which exist.
ALTER TABLE application
    ADD CONSTRAINT application_owner_permission_type
        FOREIGN KEY (owner_permission) REFERENCES permission_type (permission_type_id),
    ADD CONSTRAINT application_group_permission_type
        FOREIGN KEY (group_permission) REFERENCES permission_type (permission_type_id),
    ADD CONSTRAINT application_others_permission_type
        FOREIGN KEY (others_permission) REFERENCES permission_type (permission_type_id);

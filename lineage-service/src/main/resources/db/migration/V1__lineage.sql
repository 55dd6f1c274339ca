-- lineage-service: registered queries, the column graph parsed from them, the table schemas that the parser needs
-- (no Hive metastore exists), and process lineage read from run and batch events.

-- The kinds of node the column graph holds; a master table so a node's type is checked and self-describing.
CREATE TABLE lineage_node_type (
    node_type_id SMALLINT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE
);
INSERT INTO lineage_node_type (node_type_id, name) VALUES
    (1, 'table'), (2, 'column'), (3, 'function'), (4, 'temp_table'), (5, 'idle_column'), (6, 'constant');

CREATE TABLE lineage_query (
    query_id         UUID PRIMARY KEY,
    query_type       TEXT NOT NULL CHECK (query_type IN ('HIVE', 'SQL', 'PIG')),
    query_text       TEXT NOT NULL CHECK (length(query_text) BETWEEN 1 AND 1000000),
    default_database TEXT NOT NULL,
    process_id       BIGINT NOT NULL CHECK (process_id >= 0), -- 0: an event that named no valid process
    instance_exec_id BIGINT CHECK (instance_exec_id > 0),
    -- PARSED: every statement parsed; FAILED: at least one did not (the others' lineage is kept);
    -- UNSUPPORTED: a query type that is stored but never parsed (Pig).
    parse_status     TEXT NOT NULL CHECK (parse_status IN ('PARSED', 'FAILED', 'UNSUPPORTED')),
    parse_error      TEXT,
    warnings         TEXT[] NOT NULL DEFAULT '{}',
    registered_via   TEXT NOT NULL CHECK (registered_via IN ('api', 'kafka')),
    registered_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT parse_error_iff_not_parsed CHECK ((parse_status = 'PARSED') = (parse_error IS NULL))
);
CREATE INDEX lineage_query_process ON lineage_query (process_id, registered_at);
CREATE INDEX lineage_query_run ON lineage_query (instance_exec_id);

-- Tables and columns are shared by every query (node_key 'db.table' / 'db.table.column'), so the graph connects
-- across queries and processes. Functions, constants and temporary tables belong to one query (query_id set).
CREATE TABLE lineage_node (
    node_id           BIGSERIAL PRIMARY KEY,
    node_key          TEXT NOT NULL UNIQUE,
    node_type_id      SMALLINT NOT NULL REFERENCES lineage_node_type,
    display_name      TEXT NOT NULL,
    container_node_id BIGINT REFERENCES lineage_node ON DELETE CASCADE,
    node_order        INT CHECK (node_order >= 0),
    query_id          UUID REFERENCES lineage_query ON DELETE CASCADE,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Columns (used or idle) always sit in a table; nothing else does.
    CONSTRAINT column_has_table CHECK ((node_type_id IN (2, 5)) = (container_node_id IS NOT NULL)),
    CONSTRAINT local_nodes_have_query CHECK (node_type_id NOT IN (3, 6) OR query_id IS NOT NULL)
);
CREATE INDEX lineage_node_container ON lineage_node (container_node_id);

CREATE TABLE lineage_relation (
    relation_id    UUID PRIMARY KEY,
    query_id       UUID NOT NULL REFERENCES lineage_query ON DELETE CASCADE,
    src_node_id    BIGINT NOT NULL REFERENCES lineage_node ON DELETE CASCADE,
    target_node_id BIGINT NOT NULL REFERENCES lineage_node ON DELETE CASCADE,
    -- Indirect: a column read in JOIN/WHERE/GROUP BY/HAVING into the table whose rows it decides (target = a table).
    indirect       BOOLEAN NOT NULL DEFAULT FALSE,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT relation_once_per_query UNIQUE (query_id, src_node_id, target_node_id),
    -- A column feeding itself (INSERT INTO t SELECT c FROM t) is not lineage.
    CONSTRAINT no_self_relation CHECK (src_node_id <> target_node_id)
);
CREATE INDEX lineage_relation_src ON lineage_relation (src_node_id);
CREATE INDEX lineage_relation_target ON lineage_relation (target_node_id);

-- Column lists of tables, for '*' expansion, positional INSERT mapping and idle columns.
CREATE TABLE table_schema (
    table_name   TEXT PRIMARY KEY CHECK (table_name ~ '^[^.\s]+\.[^.\s]+$' AND table_name = lower(table_name)),
    columns      TEXT[] NOT NULL CHECK (cardinality(columns) BETWEEN 1 AND 5000),
    learned_from TEXT NOT NULL CHECK (learned_from IN ('api', 'ddl')),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Process lineage, projected from execution and queue events. No foreign keys between these tables: events of
-- different topics arrive in any order, and each table is complete on its own.
CREATE TABLE process_run (
    instance_exec_id BIGINT PRIMARY KEY,
    process_id       BIGINT NOT NULL,
    target_batch_id  BIGINT,
    batch_marking    TEXT,
    state            TEXT NOT NULL CHECK (state IN ('RUNNING', 'SUCCESS', 'FAILED')),
    started_at       TIMESTAMPTZ,
    ended_at         TIMESTAMPTZ,
    CONSTRAINT ended_after_start CHECK (ended_at IS NULL OR started_at IS NULL OR ended_at >= started_at)
);
CREATE INDEX process_run_batch ON process_run (target_batch_id);
CREATE INDEX process_run_process ON process_run (process_id);

CREATE TABLE step_run (
    sub_instance_exec_id    BIGINT PRIMARY KEY,
    sub_process_id          BIGINT NOT NULL,
    parent_process_id       BIGINT NOT NULL,
    parent_instance_exec_id BIGINT NOT NULL,
    started_at              TIMESTAMPTZ NOT NULL
);
CREATE INDEX step_run_parent ON step_run (parent_instance_exec_id);
CREATE INDEX step_run_sub_process ON step_run (sub_process_id);

-- A batch offered to a consuming step (BatchEnqueued).
CREATE TABLE batch_enqueue (
    queue_id            BIGINT PRIMARY KEY,
    source_batch_id     BIGINT NOT NULL,
    source_process_id   BIGINT,
    consumer_process_id BIGINT NOT NULL,
    batch_marking       TEXT,
    enqueued_at         TIMESTAMPTZ NOT NULL
);
CREATE INDEX batch_enqueue_source ON batch_enqueue (source_batch_id);
CREATE INDEX batch_enqueue_consumer ON batch_enqueue (consumer_process_id);

-- Source batches a completed run consumed (BatchesArchived): the run is the parent's run with that target batch.
CREATE TABLE batch_consumption (
    parent_process_id BIGINT NOT NULL,
    target_batch_id   BIGINT NOT NULL,
    source_batch_id   BIGINT NOT NULL,
    archived_at       TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (target_batch_id, source_batch_id)
);
CREATE INDEX batch_consumption_source ON batch_consumption (source_batch_id);

-- Local copy of process definitions, projected from registry events (ProcessRegistered/Changed/Deleted).
-- Services that need definitions keep this instead of reading registry tables.
CREATE TABLE process_definition (
    process_id            BIGINT      PRIMARY KEY,
    parent_process_id     BIGINT,
    process_name          TEXT        NOT NULL,
    process_type_id       INT         NOT NULL,
    can_recover           BOOLEAN     NOT NULL,
    enqueuing_process_ids BIGINT[]    NOT NULL DEFAULT '{}',
    batch_cut_pattern     TEXT,
    next_process_ids      BIGINT[]    NOT NULL DEFAULT '{}',
    deleted               BOOLEAN     NOT NULL DEFAULT false,
    workflow_type_id      INT         NOT NULL,
    properties            JSONB       NOT NULL DEFAULT '[]',
    -- occurredAt of the registry event that last wrote the row: an older event never overwrites a newer state.
    source_occurred_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX process_definition_parent ON process_definition (parent_process_id);
CREATE INDEX process_definition_enqueuers ON process_definition USING gin (enqueuing_process_ids);

-- Who may do what with each application's processes, projected from the registry's ApplicationChanged events, and
-- which application each process belongs to. Permission types: 0 none, 4 read, 6 read + write, 7 read + write + execute.
ALTER TABLE process_definition ADD COLUMN application_id BIGINT;

CREATE TABLE application_access (
    application_id     BIGINT      PRIMARY KEY,
    owner_user         TEXT,
    owner_group        TEXT,
    owner_permission   SMALLINT    NOT NULL CHECK (owner_permission IN (0, 4, 6, 7)),
    group_permission   SMALLINT    NOT NULL CHECK (group_permission IN (0, 4, 6, 7)),
    others_permission  SMALLINT    NOT NULL CHECK (others_permission IN (0, 4, 6, 7)),
    deleted            BOOLEAN     NOT NULL DEFAULT false,
    -- occurredAt of the registry event that last wrote the row: an older event never overwrites a newer state.
    source_occurred_at TIMESTAMPTZ NOT NULL
);

-- Which application each registered process belongs to, and the applications' names, projected from the registry
-- topic (ProcessRegistered/ProcessChanged, ApplicationChanged): OpenLineage names a run's namespaces after its
-- application. source_occurred_at is the occurredAt of the registry event that last wrote the row: an older event
-- never overwrites a newer state.
CREATE TABLE registry_process (
    process_id         BIGINT      PRIMARY KEY,
    application_id     BIGINT      NOT NULL,
    source_occurred_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE registry_application (
    application_id     BIGINT      PRIMARY KEY,
    name               TEXT        NOT NULL CHECK (length(name) BETWEEN 1 AND 500),
    deleted            BOOLEAN     NOT NULL DEFAULT false,
    source_occurred_at TIMESTAMPTZ NOT NULL
);

-- Data deadlines. deadline_definition: each parent's deadlines as the registry last announced them (projected from
-- ProcessDefinition.deadlines on the registry topic). deadline_instance: one row per deadline of an expected bucket,
-- created before any run of the bucket, so that a deadline falls whether or not a run exists.
CREATE TABLE deadline_definition (
    process_id         BIGINT      PRIMARY KEY,
    grain              TEXT        NOT NULL CHECK (grain IN ('hour', 'day', 'week', 'month')),
    cron               TEXT,
    zone               TEXT        NOT NULL,
    start_by           TEXT,
    finish_by          TEXT,
    max_runtime        TEXT,
    -- buckets that ended before this service-clock instant are never expected: a new promise does not reach back
    -- (nor does a backfill of older buckets ever meet a live deadline)
    effective_from     TIMESTAMPTZ NOT NULL,
    -- the end of the last bucket whose deadlines exist
    materialised_until TIMESTAMPTZ NOT NULL,
    -- occurredAt of the registry event that last wrote the row: an older event never overwrites a newer state
    source_occurred_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE deadline_instance (
    deadline_id        BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    process_id         BIGINT      NOT NULL,
    bucket             TEXT        NOT NULL,
    kind               TEXT        NOT NULL CHECK (kind IN ('START', 'FINISH', 'RUNTIME')),
    bucket_end         TIMESTAMPTZ NOT NULL,
    -- null only for a RUNTIME deadline whose run has not started
    due_at             TIMESTAMPTZ CHECK (due_at IS NOT NULL OR kind = 'RUNTIME'),
    state              TEXT        NOT NULL DEFAULT 'SET'
                                   CHECK (state IN ('SET', 'AT_RISK', 'MET', 'MISSED', 'RECOVERED', 'WAIVED')),
    eta                TIMESTAMPTZ,
    blocker_process_id BIGINT,
    blocker_reason     TEXT,
    waive_reason       TEXT,
    -- service-clock instants: when the run of the bucket was seen starting, when the deadline was decided
    run_started_at     TIMESTAMPTZ,
    decided_at         TIMESTAMPTZ,
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (process_id, bucket, kind)
);
-- the checker's one query: the open deadlines that are due, oldest first
CREATE INDEX deadline_instance_due ON deadline_instance (due_at) WHERE state IN ('SET', 'AT_RISK');
CREATE INDEX deadline_instance_open ON deadline_instance (process_id, bucket) WHERE state IN ('SET', 'AT_RISK', 'MISSED');
CREATE INDEX deadline_instance_state ON deadline_instance (state, due_at);

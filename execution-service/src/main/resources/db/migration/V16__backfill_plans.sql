-- Backfill plans: what a preview answered, kept as an artefact so that a backfill runs exactly the plan a person read.
-- The fingerprint is of the state the plan was computed from (queue-service's queue and archive rows the impact walk
-- read, and this service's bucket ledger rows of the roots); a plan whose fingerprint no longer matches is stale.
CREATE TABLE backfill_plan (
    plan_id      UUID        PRIMARY KEY,
    -- the preview's request as the caller sent it (roots, range, mode, cascade)
    request      JSONB       NOT NULL,
    fingerprint  TEXT        NOT NULL CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
    created_by   TEXT        NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    levels       INT         NOT NULL CHECK (levels >= 0),
    estimated_ms BIGINT      NOT NULL CHECK (estimated_ms >= 0)
);

-- One unit of work of a plan: re-run a process for a bucket on its input batches, replacing a run (none when the
-- bucket never ran). Level 0 are the roots; an entry runs once the entries it consumed from, at lower levels, ended.
CREATE TABLE backfill_plan_entry (
    plan_id         UUID    NOT NULL REFERENCES backfill_plan (plan_id) ON DELETE CASCADE,
    entry_no        INT     NOT NULL CHECK (entry_no > 0),
    level           INT     NOT NULL CHECK (level >= 0),
    process_id      BIGINT  NOT NULL,
    bucket          TEXT,
    replaced_run_id BIGINT,
    input_batch_ids BIGINT[] NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('COMPLETED', 'FAILED', 'RUNNING', 'MISSING')),
    root            BOOLEAN NOT NULL,
    -- the chain from a root to this entry: [{processId, runId, batchId}], batchId the batch consumed from the link before
    reason          JSONB   NOT NULL,
    -- median of the process's recent successful runs; NULL when it has none
    estimated_ms    BIGINT  CHECK (estimated_ms >= 0),
    PRIMARY KEY (plan_id, entry_no),
    CHECK ((replaced_run_id IS NULL) = (status = 'MISSING'))
);
CREATE INDEX backfill_plan_entry_process ON backfill_plan_entry (process_id);

-- What each plan entry consumed from other entries of its plan ([{entryNo, batchId}]): the entries it waits for, and
-- the batches whose re-made versions its re-run consumes instead. Plans kept before this column consume nothing.
ALTER TABLE backfill_plan_entry ADD COLUMN consumes JSONB NOT NULL DEFAULT '[]';

-- A backfill's progress, one row per entry of its plan, made when the backfill first runs. PENDING: not started;
-- STARTING: its bucket is handed to the runner; RUNNING: the runner's run of it started; SUCCEEDED, FAILED; SKIPPED:
-- an entry it consumes from failed. A resume makes FAILED and SKIPPED entries PENDING again.
CREATE TABLE backfill_entry (
    backfill_id      UUID        NOT NULL REFERENCES backfill (backfill_id) ON DELETE CASCADE,
    entry_no         INT         NOT NULL,
    level            INT         NOT NULL,
    process_id       BIGINT      NOT NULL,
    bucket           TEXT        NOT NULL,
    state            TEXT        NOT NULL
        CHECK (state IN ('PENDING', 'STARTING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'SKIPPED')),
    -- the batches its run claims by name; NULL: the ordinary claim (a source job, or a failed run's retry)
    source_batch_ids BIGINT[],
    instance_exec_id BIGINT,
    -- the re-run's output, offered to the entries that consumed the replaced run's output
    target_batch_id  BIGINT,
    message          TEXT,
    started_at       TIMESTAMPTZ,
    ended_at         TIMESTAMPTZ,
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (backfill_id, entry_no)
);
-- The runner asks, for every run it starts, whether a backfill handed it the run's bucket.
CREATE INDEX backfill_entry_in_flight ON backfill_entry (process_id, bucket) WHERE state IN ('STARTING', 'RUNNING');

-- Bucket-aware triggers. A parent's policy gets its new names (on-batch is each, all-enqueuers is all) and settings:
-- the input processes considered (NULL: every enqueuing process its live steps name), n of n-of, the timeout of
-- all-with-timeout (seconds), the grain and zone of its buckets (also how its own markings are read by its consumers;
-- grain 'upstream' and zone NULL are the defaults: the input's own bucket, the runner's time zone), whether a burst of
-- inputs for one bucket joins the pending run (coalesce_inputs) and whether its triggered runs are paused.
ALTER TABLE trigger_policy DROP CONSTRAINT trigger_policy_policy_check;
UPDATE trigger_policy SET policy = 'each' WHERE policy = 'on-batch';
UPDATE trigger_policy SET policy = 'all' WHERE policy = 'all-enqueuers';
ALTER TABLE trigger_policy ADD CONSTRAINT trigger_policy_policy_check
    CHECK (policy IN ('each', 'all', 'any-of', 'n-of', 'all-with-timeout', 'none'));
ALTER TABLE trigger_policy ADD COLUMN inputs BIGINT[];
ALTER TABLE trigger_policy ADD COLUMN n INT CHECK (n >= 1);
ALTER TABLE trigger_policy ADD COLUMN timeout_seconds BIGINT CHECK (timeout_seconds > 0);
ALTER TABLE trigger_policy ADD COLUMN grain VARCHAR(10) NOT NULL DEFAULT 'upstream'
    CHECK (grain IN ('upstream', 'hour', 'day', 'week', 'month'));
ALTER TABLE trigger_policy ADD COLUMN zone VARCHAR(64);
ALTER TABLE trigger_policy ADD COLUMN coalesce_inputs BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE trigger_policy ADD COLUMN paused BOOLEAN NOT NULL DEFAULT FALSE;

-- A bucket of a parent that has inputs: WAITING until its policy makes it due, then FIRED (later inputs join the
-- pending run or are recorded as late). timeout_at: when an all-with-timeout bucket runs with what it has; the sweep
-- takes due rows with FOR UPDATE SKIP LOCKED, so replicas never fire one bucket twice.
CREATE TABLE trigger_bucket (
    process_id      BIGINT       NOT NULL,
    bucket          TEXT         NOT NULL CHECK (length(bucket) BETWEEN 1 AND 100),
    state           VARCHAR(10)  NOT NULL CHECK (state IN ('WAITING', 'FIRED')),
    first_input_at  TIMESTAMPTZ  NOT NULL,
    timeout_at      TIMESTAMPTZ,
    PRIMARY KEY (process_id, bucket)
);
CREATE INDEX trigger_bucket_waiting ON trigger_bucket (process_id, first_input_at) WHERE state = 'WAITING';
CREATE INDEX trigger_bucket_timeout ON trigger_bucket (timeout_at) WHERE state = 'WAITING' AND timeout_at IS NOT NULL;

-- A run a trigger decided: PENDING until the runner (or the launcher hook) starts it, STARTED with the run it became,
-- or SKIPPED by a resume with skip (its batches stay on the queue). reason: why it fired; missing: for a bucket that
-- fired on its timeout, [{"processId", "buckets"}] that did not arrive; first_event_at: the earliest input event's
-- time, from which the trigger's latency is measured.
CREATE TABLE trigger_run (
    id                BIGSERIAL    PRIMARY KEY,
    process_id        BIGINT       NOT NULL,
    bucket            TEXT         NOT NULL,
    state             VARCHAR(10)  NOT NULL CHECK (state IN ('PENDING', 'STARTED', 'SKIPPED')),
    reason            VARCHAR(1000) NOT NULL,
    missing           JSONB        NOT NULL DEFAULT '[]',
    first_event_at    TIMESTAMPTZ,
    created_at        TIMESTAMPTZ  NOT NULL,
    started_at        TIMESTAMPTZ,
    instance_exec_id  BIGINT
);
CREATE INDEX trigger_run_newest ON trigger_run (process_id, id DESC);
CREATE INDEX trigger_run_pending ON trigger_run (process_id, bucket) WHERE state = 'PENDING';

-- Every BatchEnqueued of a parent with a policy: which bucket of the parent it feeds, from which process and batch,
-- for which step, under which bucket of its own, when it arrived; the run that consumes it, or late when it arrived
-- after its bucket's run had started (never dropped).
CREATE TABLE trigger_input (
    id                 BIGSERIAL    PRIMARY KEY,
    process_id         BIGINT       NOT NULL,
    bucket             TEXT         NOT NULL,
    source_process_id  BIGINT,
    source_batch_id    BIGINT       NOT NULL,
    queue_id           BIGINT       NOT NULL,
    step_id            BIGINT       NOT NULL,
    input_bucket       TEXT,
    arrived_at         TIMESTAMPTZ  NOT NULL,
    run_id             BIGINT       REFERENCES trigger_run (id),
    late               BOOLEAN      NOT NULL DEFAULT FALSE
);
CREATE INDEX trigger_input_bucket ON trigger_input (process_id, bucket);
CREATE INDEX trigger_input_run ON trigger_input (run_id);

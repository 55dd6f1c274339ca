-- execution-service: the stand-alone runner (schedules, buckets, retries and hooks) for parents of workflow type 2.
-- The registry owns what a step runs (its "script" and "param" properties); these tables own when and how often.

-- Run policy of one stand-alone parent (PWM job + job_context + job_loop-free part of job).
CREATE TABLE runner_job (
    process_id        BIGINT      PRIMARY KEY,
    enabled           BOOLEAN     NOT NULL DEFAULT true,
    -- NULL: only buckets added over the API; YYYYMMDD / YYYYMMDDHH: the clock's period; otherwise a bucket key
    bucket            TEXT,
    is_batch          BOOLEAN     NOT NULL DEFAULT false,
    is_exact_match    BOOLEAN     NOT NULL DEFAULT false,
    max_batch_size    INT         CHECK (max_batch_size > 0),
    retry_failed      BOOLEAN     NOT NULL DEFAULT false,
    context_value     TEXT,
    context_file      TEXT,
    context_script    TEXT,
    -- at most this many of the parent's steps run at once (a fork wider than this queues)
    step_concurrency  INT         NOT NULL DEFAULT 4 CHECK (step_concurrency BETWEEN 1 AND 64),
    timeout_seconds   INT         NOT NULL DEFAULT 3600 CHECK (timeout_seconds > 0),
    on_init           TEXT,
    on_success        TEXT,
    on_error          TEXT,
    updated_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Named bucket keys resolved by a script (built-in keys such as PreviousDay need no row).
CREATE TABLE bucket_key (
    bucket_key   TEXT PRIMARY KEY CHECK (bucket_key ~ '^[A-Za-z][A-Za-z0-9_]*$'),
    script       TEXT NOT NULL,
    param_format TEXT
);

-- PWM's job_dependency without its one-row-per-job primary key: all rows of a job must hold (AND).
CREATE TABLE runner_dependency (
    process_id     BIGINT NOT NULL REFERENCES runner_job (process_id) ON DELETE CASCADE,
    seq            INT    NOT NULL,
    dep_process_id BIGINT,
    dep_script     TEXT,
    PRIMARY KEY (process_id, seq),
    CHECK (dep_process_id IS NOT NULL OR dep_script IS NOT NULL),
    CHECK (dep_process_id IS DISTINCT FROM process_id)
);

-- Crontab-style schedule; last_fired_at makes a tick idempotent and lets a restarted scheduler catch up.
CREATE TABLE runner_schedule (
    process_id    BIGINT      PRIMARY KEY REFERENCES runner_job (process_id) ON DELETE CASCADE,
    cron          TEXT        NOT NULL,
    time_zone     TEXT        NOT NULL DEFAULT 'UTC',
    last_fired_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- PWM's job_status: one row per (process, bucket).
CREATE TABLE bucket_status (
    process_id       BIGINT      NOT NULL,
    bucket           TEXT        NOT NULL CHECK (length(trim(bucket)) > 0),
    status           TEXT        NOT NULL CHECK (status IN ('INIT', 'RUNNING', 'COMPLETE', 'FAILED')),
    instance_exec_id BIGINT,
    attempts         INT         NOT NULL DEFAULT 0,
    message          TEXT,
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (process_id, bucket)
);
CREATE INDEX bucket_status_eligible ON bucket_status (process_id, bucket) WHERE status = 'INIT';

-- Who runs a parent now. The primary key is the atomic claim: two runners can never both insert it, and a lease
-- that was not refreshed in time may be taken over (the runner died).
CREATE TABLE runner_lease (
    process_id       BIGINT      PRIMARY KEY,
    owner            TEXT        NOT NULL,
    buckets          TEXT[]      NOT NULL,
    instance_exec_id BIGINT,
    claimed_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    lease_until      TIMESTAMPTZ NOT NULL
);

-- stdout/stderr of every command a run executed, line by line, with the run (step or parent) it belongs to.
CREATE TABLE process_log (
    log_id           BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    instance_exec_id BIGINT      NOT NULL,
    process_id       BIGINT      NOT NULL,
    stream           TEXT        NOT NULL CHECK (stream IN ('stdout', 'stderr', 'runner')),
    line_no          INT         NOT NULL,
    line             TEXT        NOT NULL,
    logged_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX process_log_run ON process_log (instance_exec_id, log_id);

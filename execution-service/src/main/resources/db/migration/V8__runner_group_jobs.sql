-- execution-service: job groups of the stand-alone runner. A stand-alone parent is a group; each of its steps is a job
-- that may have its own enable flag, bucket rule, dependencies and hooks. A step without a row here takes everything
-- from the parent's run policy, as before. A job with a row keeps its own bucket ledger in bucket_status under its
-- step id, so its buckets are independent of its siblings'.
CREATE TABLE runner_step_job (
    step_id          BIGINT      PRIMARY KEY,
    -- deleting the parent's run policy deletes its jobs' settings with it
    parent_id        BIGINT      NOT NULL REFERENCES runner_job (process_id) ON DELETE CASCADE,
    enabled          BOOLEAN     NOT NULL DEFAULT true,
    -- inherit: the run's buckets (the parent's rule); rule: a pattern or bucket key of its own; sql: the rows of a
    -- query on the read-only bucket datasource (PWM's db_proc)
    bucket_source    TEXT        NOT NULL DEFAULT 'inherit' CHECK (bucket_source IN ('inherit', 'rule', 'sql')),
    bucket           TEXT        CHECK (length(bucket) <= 200),
    bucket_sql       TEXT        CHECK (length(bucket_sql) <= 4000),
    -- false: the parent's dependencies apply to this job; true: only the rows of runner_step_dependency (maybe none)
    own_dependencies BOOLEAN     NOT NULL DEFAULT false,
    on_init          TEXT,
    on_success       TEXT,
    on_error         TEXT,
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (step_id <> parent_id),
    CHECK ((bucket_source = 'rule') = (bucket IS NOT NULL)),
    CHECK ((bucket_source = 'sql') = (bucket_sql IS NOT NULL))
);
CREATE INDEX runner_step_job_parent ON runner_step_job (parent_id);

-- A job's own dependencies, as runner_dependency is the parent's: all rows must hold (AND).
CREATE TABLE runner_step_dependency (
    step_id        BIGINT NOT NULL REFERENCES runner_step_job (step_id) ON DELETE CASCADE,
    seq            INT    NOT NULL,
    dep_process_id BIGINT,
    dep_script     TEXT,
    PRIMARY KEY (step_id, seq),
    CHECK (dep_process_id IS NOT NULL OR dep_script IS NOT NULL),
    CHECK (dep_process_id IS DISTINCT FROM step_id)
);

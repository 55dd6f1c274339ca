-- execution-service: why a job's run failed, as TermJob's caller told it (REST body, TERM_JOB command, the runner's
-- failing step), so that dashboards show the reason from the run and its JobFailed event alone.

ALTER TABLE instance_exec
    -- a code the caller chose; the stand-alone runner gives the failing step's exit code
    ADD COLUMN failure_code INTEGER,
    ADD COLUMN failure_text TEXT,
    -- the API refuses longer texts with 400 and the runner cuts its own to this length
    ADD CONSTRAINT instance_exec_failure_text_length CHECK (char_length(failure_text) <= 2000),
    -- a reason belongs to a failed run only (exec state 6, FAILED)
    ADD CONSTRAINT instance_exec_failure_reason_only_when_failed
        CHECK ((failure_code IS NULL AND failure_text IS NULL) OR exec_state = 6);

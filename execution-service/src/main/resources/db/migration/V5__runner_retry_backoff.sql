-- Automatic retries of a failed bucket are bounded and spaced: a policy that retries failed buckets gives each bucket
-- at most max_attempts runs, and waits an exponentially growing, jittered delay between them (next_attempt_at), so a
-- job that keeps failing is neither re-run on every scheduler tick nor forever.
ALTER TABLE runner_job
    ADD COLUMN max_attempts           INT NOT NULL DEFAULT 3 CHECK (max_attempts BETWEEN 1 AND 100),
    ADD COLUMN retry_backoff_seconds  INT NOT NULL DEFAULT 30 CHECK (retry_backoff_seconds > 0),
    ADD COLUMN retry_max_backoff_seconds INT NOT NULL DEFAULT 3600,
    ADD CONSTRAINT runner_job_backoff_bounds CHECK (retry_max_backoff_seconds >= retry_backoff_seconds);

ALTER TABLE bucket_status ADD COLUMN next_attempt_at TIMESTAMPTZ;

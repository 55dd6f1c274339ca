-- The deployment queue: a parent process is deployed (its process type's deployment script run) before it may be
-- triggered automatically. Status numbers are the deploy statuses: 1 not started, 2 running, 3 success, 4 fail,
-- 5 picked by a poller. The allowed moves between them are checked in the service; the database keeps the values valid.
CREATE TABLE process_deployment (
    deployment_id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    process_id             BIGINT      NOT NULL,
    process_type_id        INT,
    status                 SMALLINT    NOT NULL DEFAULT 1 CHECK (status IN (1, 2, 3, 4, 5)),
    user_name              TEXT,
    insert_ts              TIMESTAMPTZ NOT NULL DEFAULT now(),
    start_ts               TIMESTAMPTZ,
    end_ts                 TIMESTAMPTZ,
    deploy_script_location TEXT,
    -- why a deployment failed: the script's exit code and error output, or why it could not start
    message                TEXT,
    CONSTRAINT process_deployment_ended_after_start CHECK (end_ts IS NULL OR start_ts IS NULL OR end_ts >= start_ts)
);

-- the poller takes the oldest waiting rows first
CREATE INDEX process_deployment_waiting ON process_deployment (status, deployment_id);
-- a process's deployments, newest first (its latest decides whether it may be triggered)
CREATE INDEX process_deployment_latest ON process_deployment (process_id, deployment_id DESC);

-- execution-service: runs (BDRE INSTANCE_EXEC) of parents and steps, and every state transition.

CREATE TABLE exec_status (
    exec_state_id INT  PRIMARY KEY,
    description   TEXT NOT NULL UNIQUE
);
INSERT INTO exec_status (exec_state_id, description) VALUES
    (1, 'NOT RUNNING'), (2, 'RUNNING'), (3, 'SUCCESS'), (4, 'PAUSED'), (5, 'SUSPENDED'), (6, 'FAILED'),
    (7, 'KILLED'), (8, 'STARTED');

CREATE SEQUENCE instance_exec_seq;

CREATE TABLE instance_exec (
    instance_exec_id        BIGINT      PRIMARY KEY DEFAULT nextval('instance_exec_seq'),
    process_id              BIGINT      NOT NULL,
    -- for a step's run: the run of its parent it belongs to
    parent_instance_exec_id BIGINT      REFERENCES instance_exec (instance_exec_id),
    start_ts                TIMESTAMPTZ NOT NULL DEFAULT now(),
    end_ts                  TIMESTAMPTZ,
    exec_state              INT         NOT NULL REFERENCES exec_status (exec_state_id),
    target_batch_id         BIGINT,
    batch_marking           TEXT,
    retry                   BOOLEAN     NOT NULL DEFAULT false,
    last_recoverable_sp_id  BIGINT,
    version                 INT         NOT NULL DEFAULT 0,
    CHECK ((exec_state = 2) = (end_ts IS NULL))
);
-- The database's own guard for "exactly one of two concurrent InitJobs wins": one running run per process.
CREATE UNIQUE INDEX instance_exec_one_running ON instance_exec (process_id) WHERE exec_state = 2;
CREATE INDEX instance_exec_process ON instance_exec (process_id, instance_exec_id DESC);
CREATE INDEX instance_exec_parent_run ON instance_exec (parent_instance_exec_id);

CREATE TABLE exec_state_history (
    history_id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    instance_exec_id BIGINT      NOT NULL REFERENCES instance_exec (instance_exec_id),
    from_state       INT         REFERENCES exec_status (exec_state_id),
    to_state         INT         NOT NULL REFERENCES exec_status (exec_state_id),
    changed_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    cause            TEXT        NOT NULL
);
CREATE INDEX exec_state_history_run ON exec_state_history (instance_exec_id, history_id);

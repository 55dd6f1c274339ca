-- OpenLineage: step runs end (StepHalted/StepFailed), every run gets one OpenLineage run id of its own, and the
-- RunEvents to push wait in an outbox written in the transaction of the lifecycle event that caused them.

ALTER TABLE step_run
    ADD COLUMN state    TEXT NOT NULL DEFAULT 'RUNNING' CHECK (state IN ('RUNNING', 'SUCCESS', 'FAILED')),
    ADD COLUMN ended_at TIMESTAMPTZ,
    ADD CONSTRAINT step_ended_after_start CHECK (ended_at IS NULL OR ended_at >= started_at);

-- Generated once (UUIDv7) the first time a run is exported or pushed, so two installations never share run ids and a
-- run keeps its id across START, COMPLETE and every GET.
CREATE TABLE openlineage_run (
    instance_exec_id BIGINT PRIMARY KEY CHECK (instance_exec_id > 0),
    run_id           UUID NOT NULL UNIQUE,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- One row per event and transport; the relay sends a run's rows in event_seq order and only after the earlier ones.
CREATE TABLE openlineage_outbox (
    event_seq        BIGSERIAL PRIMARY KEY,
    transport        TEXT NOT NULL CHECK (transport IN ('http', 'kafka')),
    run_id           UUID NOT NULL,
    event_type       TEXT NOT NULL CHECK (event_type IN ('START', 'RUNNING', 'COMPLETE', 'FAIL')),
    payload          TEXT NOT NULL CHECK (length(payload) >= 2),
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    attempts         INT NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_error       TEXT,
    sent_at          TIMESTAMPTZ
);
CREATE INDEX openlineage_outbox_pending ON openlineage_outbox (transport, run_id, event_seq) WHERE sent_at IS NULL;

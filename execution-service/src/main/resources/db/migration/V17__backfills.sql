-- Backfills started from a plan. A backfill is started only from a plan whose fingerprint still matches the state it
-- was computed from; its state moves by the table in BackfillState, each move recorded with who made it, so a pause,
-- a resume or a cancel survives a restart of the service.
CREATE TABLE backfill (
    backfill_id UUID        PRIMARY KEY,
    plan_id     UUID        NOT NULL REFERENCES backfill_plan (plan_id),
    state       TEXT        NOT NULL CHECK (state IN ('QUEUED', 'RUNNING', 'PAUSED', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
    -- how many of its runs may be in flight at once
    concurrency INT         NOT NULL CHECK (concurrency BETWEEN 1 AND 64),
    -- stop: the first failed entry stops the backfill (FAILED, resumable); continue: entries that do not depend on it go on
    on_failure  TEXT        NOT NULL CHECK (on_failure IN ('stop', 'continue')),
    created_by  TEXT        NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    version     INT         NOT NULL DEFAULT 0
);
CREATE INDEX backfill_of_plan ON backfill (plan_id);
CREATE INDEX backfill_live ON backfill (state) WHERE state IN ('QUEUED', 'RUNNING', 'PAUSED');

CREATE TABLE backfill_transition (
    transition_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    backfill_id   UUID        NOT NULL REFERENCES backfill (backfill_id) ON DELETE CASCADE,
    from_state    TEXT,
    to_state      TEXT        NOT NULL,
    actor         TEXT        NOT NULL,
    changed_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX backfill_transition_backfill ON backfill_transition (backfill_id, transition_id);

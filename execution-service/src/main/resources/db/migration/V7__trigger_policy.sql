-- Data-aware triggering: whether a parent is to be started when one of its steps gets a batch. A parent without a row
-- has policy 'none': nothing starts it but its schedule or an explicit launch, as before triggers existed.
-- pending: a trigger came while a run was in progress; the end of that run starts the next one (the trigger's bucket
-- is already recorded as INIT), so a trigger is queued rather than refused as "already running".
CREATE TABLE trigger_policy (
    process_id  BIGINT      PRIMARY KEY,
    policy      VARCHAR(20) NOT NULL CHECK (policy IN ('on-batch', 'none')),
    pending     BOOLEAN     NOT NULL DEFAULT FALSE,
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

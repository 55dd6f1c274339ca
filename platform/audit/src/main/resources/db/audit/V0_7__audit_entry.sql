-- Who changed what, when, and how it ended: one row per state-changing HTTP call (answered or refused) and per
-- lifecycle command taken from Kafka. Rows are only ever inserted.
CREATE TABLE audit_entry (
    audit_id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    occurred_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- the token's principal; 'anonymous' when the caller presented none or one that was refused
    subject          TEXT        NOT NULL CHECK (subject <> ''),
    channel          TEXT        NOT NULL CHECK (channel IN ('HTTP', 'COMMAND')),
    -- "POST /processes/7/properties/k" or the command ("INIT_JOB")
    action           TEXT        NOT NULL,
    -- the process the call or command named, where it names one
    process_id       BIGINT,
    -- HTTP: the status answered; COMMAND: ACCEPTED or REJECTED
    outcome          TEXT        NOT NULL,
    -- the problem's numeric code when the answer was a refusal
    problem_code     INT,
    correlation_id   TEXT
);
CREATE INDEX audit_entry_time ON audit_entry (occurred_at DESC, audit_id DESC);
CREATE INDEX audit_entry_subject ON audit_entry (subject, occurred_at DESC);
CREATE INDEX audit_entry_process ON audit_entry (process_id, occurred_at DESC) WHERE process_id IS NOT NULL;

-- queue-service: operator actions on compaction (issue 18 item 4). A dropped table keeps its rows and files (readers of
-- its published manifests are not broken) but merges and registrations stop; every operator action leaves an audit row.
ALTER TABLE compaction_table ADD COLUMN dropped_at TIMESTAMPTZ;

CREATE TABLE compaction_audit (
    audit_id  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- the caller's principal name as authenticated ('anonymous' only where security is off, as in dev)
    actor     TEXT        NOT NULL CHECK (length(actor) BETWEEN 1 AND 256),
    action    TEXT        NOT NULL CHECK (action IN ('DROP_TABLE', 'REPLAY_REGISTRATION')),
    -- what the action was about, e.g. 'table 12' or 'table s.events 2026-11-20'
    target    TEXT        NOT NULL CHECK (length(target) BETWEEN 1 AND 512),
    -- DONE (changed something), ALREADY (an idempotent repeat: nothing changed) or PARTIAL (a replay with refusals)
    result    TEXT        NOT NULL CHECK (result IN ('DONE', 'ALREADY', 'PARTIAL')),
    detail    TEXT        NOT NULL CHECK (length(detail) <= 2000),
    at        TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX compaction_audit_at ON compaction_audit (at DESC, audit_id DESC);

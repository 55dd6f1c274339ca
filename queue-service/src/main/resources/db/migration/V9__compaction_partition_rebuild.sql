-- queue-service: rebuilding a partition from its small objects (issue 18 item 4). A rebuild gives every object it
-- includes a fresh id from the small-object sequence (above every id the partition's ranges and manifests ever named),
-- resets the partition's range chain to its sentinel and lets the ordinary merges rebuild it. New ids give new merged
-- object keys and a manifest version above the published one, so readers keep reading the old manifest until the new
-- one is published whole, and then switch to it.

-- the largest id the rebuild gave out: the rebuilt chain is complete (and may be published) once it reaches this id;
-- the rebuild is pending while the published version is below it. NULL: never rebuilt.
ALTER TABLE compaction_partition ADD COLUMN rebuild_target BIGINT CHECK (rebuild_target IS NULL OR rebuild_target > 0);
ALTER TABLE compaction_partition ADD COLUMN rebuild_requested_at TIMESTAMPTZ;
ALTER TABLE compaction_partition ADD CONSTRAINT compaction_partition_rebuild_when
    CHECK ((rebuild_target IS NULL) = (rebuild_requested_at IS NULL));

ALTER TABLE compaction_audit DROP CONSTRAINT compaction_audit_action_check;
ALTER TABLE compaction_audit ADD CONSTRAINT compaction_audit_action_check
    CHECK (action IN ('DROP_TABLE', 'REPLAY_REGISTRATION', 'REBUILD_PARTITION'));
-- a client's Idempotency-Key of the action: the request that did the work keeps it, so a repeat finds it
ALTER TABLE compaction_audit ADD COLUMN idempotency_key TEXT
    CHECK (idempotency_key IS NULL OR length(idempotency_key) BETWEEN 1 AND 256);
CREATE UNIQUE INDEX compaction_audit_idempotency ON compaction_audit (action, idempotency_key) WHERE result = 'DONE';

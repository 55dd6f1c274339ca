-- queue-service: quarantine of small objects a merge cannot use (a record that is not a JSON object, an object missing
-- from a store that otherwise serves its folder). The merge skips such an object and goes on with the rest of its
-- partition; an operator releases it (after fixing it at its source key) or drops it. One row per object: a release
-- that turns out bad again brings the same row back to QUARANTINED.

-- A released object is re-numbered (UPDATE ... SET object_id = DEFAULT) so that it sorts after every merged range and
-- the next merge picks it up; the quarantine row follows it through ON UPDATE CASCADE.
CREATE TABLE small_object_quarantine (
    object_id      BIGINT      PRIMARY KEY REFERENCES small_object (object_id) ON UPDATE CASCADE,
    partition_id   BIGINT      NOT NULL REFERENCES compaction_partition (partition_id),
    -- the producer's key, as registered: how an operator names the object (stable across re-numbering)
    source_key     TEXT        NOT NULL,
    state          TEXT        NOT NULL CHECK (state IN ('QUARANTINED', 'RELEASED', 'DROPPED')),
    -- 1-based line of the first bad record; NULL when the object as a whole could not be read
    line_number    INT         CHECK (line_number IS NULL OR line_number >= 1),
    error          TEXT        NOT NULL CHECK (length(error) BETWEEN 1 AND 500),
    quarantined_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- when an operator last released or dropped it; NULL while it waits for one
    decided_at     TIMESTAMPTZ,
    UNIQUE (partition_id, source_key),
    CHECK ((state = 'QUARANTINED') = (decided_at IS NULL))
);
CREATE INDEX small_object_quarantine_state ON small_object_quarantine (partition_id, state, object_id);

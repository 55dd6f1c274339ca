-- queue-service: small-object compaction, which merges a table's many small objects into fewer large ones. Tables,
-- date partitions, small objects, the merge-job queue, merge ranges chained by constraints, and manifest versions.
-- Every timestamp is TIMESTAMPTZ.

CREATE TABLE compaction_table (
    table_id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    schema_name            TEXT        NOT NULL CHECK (schema_name ~ '^[a-z0-9_]{1,128}$'),
    table_name             TEXT        NOT NULL CHECK (table_name ~ '^[a-z0-9_]{1,128}$'),
    -- seconds from the first unmerged arrival to its merge (A.2: 12 h by default)
    merge_interval_seconds INT         NOT NULL DEFAULT 43200 CHECK (merge_interval_seconds >= 0),
    -- offset of the event-local dates; a date closes at 00:00 local of the following day (A.8)
    zone_offset_minutes    INT         NOT NULL DEFAULT 0 CHECK (zone_offset_minutes BETWEEN -1080 AND 1080),
    created_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (schema_name, table_name)
);

CREATE TABLE compaction_partition (
    partition_id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    table_id                 BIGINT      NOT NULL REFERENCES compaction_table (table_id),
    partition_date           DATE        NOT NULL,
    -- -1 never published, 0 published on the live prefix, > 0 manifest of that version
    current_manifest_version BIGINT      NOT NULL DEFAULT -1 CHECK (current_manifest_version >= -1),
    -- largest small-object id merged so far; only grows
    desired_manifest_version BIGINT      NOT NULL DEFAULT 0 CHECK (desired_manifest_version >= 0),
    -- non-null = closed: the largest id among the live (non-delayed) small objects at close time
    last_live_object_id      BIGINT,
    switched                 BOOLEAN     NOT NULL DEFAULT false,
    created_at               TIMESTAMPTZ NOT NULL DEFAULT now(),
    closed_at                TIMESTAMPTZ,
    switched_at              TIMESTAMPTZ,
    UNIQUE (table_id, partition_date),
    CHECK (NOT switched OR last_live_object_id IS NOT NULL),
    CHECK ((last_live_object_id IS NULL) = (closed_at IS NULL))
);

CREATE TABLE small_object (
    -- orders and bounds merges: ranges are expressed in these ids
    object_id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partition_id   BIGINT      NOT NULL REFERENCES compaction_partition (partition_id),
    -- the producer's key of the object: registering it twice (REST retry, redelivered event) finds this row
    source_key     TEXT        NOT NULL,
    -- decided inside the insert from the partition's closed state, and sticky afterwards
    delayed        BOOLEAN     NOT NULL,
    content_length BIGINT      NOT NULL CHECK (content_length >= 0),
    registered_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (partition_id, source_key)
);
CREATE INDEX small_object_partition ON small_object (partition_id, object_id);

-- Registrations that could not be routed (unknown table, missing object): kept for an operator, never retried.
CREATE TABLE unknown_object (
    source_key    TEXT        NOT NULL,
    schema_name   TEXT        NOT NULL,
    table_name    TEXT        NOT NULL,
    reason        TEXT        NOT NULL,
    first_seen_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (schema_name, table_name, source_key)
);

CREATE TABLE merge_job (
    job_id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partition_id   BIGINT      NOT NULL REFERENCES compaction_partition (partition_id),
    state          TEXT        NOT NULL CHECK (state IN ('PENDING', 'ONGOING', 'DEAD')),
    -- not claimable before this time
    schedule_time  TIMESTAMPTZ NOT NULL,
    -- claims that did not end cleanly so far (carried over when the job is re-queued); DEAD at the configured maximum
    attempts       INT         NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    lease_owner    TEXT,
    claimed_at     TIMESTAMPTZ,
    heartbeat_at   TIMESTAMPTZ,
    last_error     TEXT,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK ((state = 'ONGOING') = (lease_owner IS NOT NULL AND heartbeat_at IS NOT NULL))
);
-- Coalescing: at most one pending job per partition; arrivals while one is pending insert nothing.
CREATE UNIQUE INDEX merge_job_one_pending ON merge_job (partition_id) WHERE state = 'PENDING';
-- Backstop of the exclusive claim: one partition is never merged by two workers at once.
CREATE UNIQUE INDEX merge_job_one_ongoing ON merge_job (partition_id) WHERE state = 'ONGOING';
CREATE INDEX merge_job_due ON merge_job (schedule_time) WHERE state = 'PENDING';
CREATE INDEX merge_job_heartbeat ON merge_job (heartbeat_at) WHERE state = 'ONGOING';

CREATE TABLE merge_range (
    range_id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    partition_id   BIGINT      NOT NULL REFERENCES compaction_partition (partition_id),
    -- exclusive lower small-object id; NULL only for the sentinel (NULL, 0]
    lower_bound    BIGINT,
    -- inclusive upper small-object id
    upper_bound    BIGINT      NOT NULL,
    -- size of the merged file actually written
    content_length BIGINT      NOT NULL CHECK (content_length >= 0),
    record_count   BIGINT      NOT NULL DEFAULT 0 CHECK (record_count >= 0),
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT merge_range_lower UNIQUE NULLS NOT DISTINCT (partition_id, lower_bound),
    CONSTRAINT merge_range_upper UNIQUE (partition_id, upper_bound),
    -- the chain: every range starts exactly where another ends, so ranges tile the id space with no gap or overlap,
    -- and only the last range can grow (a widened middle range would orphan its successor's lower bound)
    CONSTRAINT merge_range_chain FOREIGN KEY (partition_id, lower_bound)
        REFERENCES merge_range (partition_id, upper_bound),
    CHECK (upper_bound > lower_bound),
    CHECK (lower_bound IS NOT NULL OR (upper_bound = 0 AND content_length = 0))
);

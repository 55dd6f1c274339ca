-- Per-table compaction settings, changed at run time (PUT /compaction/tables/{table}/settings) and read at each
-- decision. NULL means "the service's global default" (batchyard.compaction.*), so a table follows a changed default
-- until it gets a value of its own.
ALTER TABLE compaction_table
    -- largest merged object planned, in bytes
    ADD COLUMN merged_object_size     BIGINT CHECK (merged_object_size > 0),
    -- how many days before / after today (in the table's zone) a partition date is accepted
    ADD COLUMN acceptance_past_days   INT    CHECK (acceptance_past_days BETWEEN 0 AND 36600),
    ADD COLUMN acceptance_future_days INT    CHECK (acceptance_future_days BETWEEN 0 AND 36600),
    -- a new object for a published partition whose date is more than this many days ago is refused
    ADD COLUMN mergeable_delay_days   INT    CHECK (mergeable_delay_days BETWEEN 0 AND 36600),
    -- IANA zone of the table's dates; when set it replaces zone_offset_minutes (which cannot follow summer time)
    ADD COLUMN time_zone              TEXT   CHECK (time_zone ~ '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$'),
    ADD COLUMN settings_updated_at    TIMESTAMPTZ;

-- A parent's data deadlines: when its buckets are expected (a grain, optionally a cron schedule, in a time zone) and,
-- counted from a bucket's end on that zone's local clock, by when its run must start and finish, and how long it may
-- run (ISO-8601 durations). Announced with the parent in ProcessRegistered/ProcessChanged; execution-service keeps
-- the deadlines of each expected bucket.
CREATE TABLE process_deadline (
    process_id  BIGINT PRIMARY KEY REFERENCES process (process_id),
    grain       TEXT   NOT NULL DEFAULT 'day' CHECK (grain IN ('hour', 'day', 'week', 'month')),
    cron        TEXT   CHECK (length(trim(cron)) > 0),
    zone        TEXT   NOT NULL CHECK (length(trim(zone)) > 0),
    start_by    TEXT,
    finish_by   TEXT,
    max_runtime TEXT,
    CHECK (start_by IS NOT NULL OR finish_by IS NOT NULL OR max_runtime IS NOT NULL)
);

-- Where a compaction table's objects live: the service's filesystem store (the default, as before) or a bucket of
-- the configured S3-compatible store, under a key prefix. Fixed at registration: moving a table between stores would
-- strand the objects, ranges and manifests already written.
ALTER TABLE compaction_table
    ADD COLUMN store_kind   TEXT NOT NULL DEFAULT 'filesystem' CHECK (store_kind IN ('filesystem', 's3')),
    -- S3 bucket naming rules (3-63 lower-case letters, digits, dots and hyphens)
    ADD COLUMN store_bucket TEXT CHECK (store_bucket ~ '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$'),
    -- prepended to every key of the table in the bucket: empty or relative segments ending in '/'
    ADD COLUMN store_prefix TEXT NOT NULL DEFAULT ''
        CHECK (store_prefix = '' OR store_prefix ~ '^([A-Za-z0-9_.=-]+/)+$' AND store_prefix !~ '(^|/)\.\.?/'),
    ADD CONSTRAINT compaction_table_store_bucket CHECK ((store_kind = 's3') = (store_bucket IS NOT NULL)),
    ADD CONSTRAINT compaction_table_store_prefix CHECK (store_kind = 's3' OR store_prefix = '');

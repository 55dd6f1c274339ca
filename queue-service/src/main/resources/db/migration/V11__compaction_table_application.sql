-- queue-service: a compaction table belongs to an application, as a process does; the application's permissions (the
-- read model's application_access) decide who may see the table, change its settings and operate it. Tables
-- registered before go to the seeded application 1; a new table names its application when it is registered.
ALTER TABLE compaction_table ADD COLUMN application_id BIGINT NOT NULL DEFAULT 1;
ALTER TABLE compaction_table ALTER COLUMN application_id DROP DEFAULT;
CREATE INDEX compaction_table_application ON compaction_table (application_id);

-- The table an audited operator action was about, so that the audit lists each caller only the actions on tables it
-- may read. Earlier rows are matched through the target they name ('table 12', 'partition 7' or, for a replay,
-- 'table schema.table date'); a row that matches no table stays without one and is listed to administrators only.
ALTER TABLE compaction_audit ADD COLUMN table_id BIGINT;
UPDATE compaction_audit SET table_id = CAST(substring(target FROM '^table ([0-9]+)$') AS bigint)
WHERE target ~ '^table [0-9]+$';
UPDATE compaction_audit a SET table_id = p.table_id FROM compaction_partition p
WHERE a.table_id IS NULL AND a.target = 'partition ' || p.partition_id;
UPDATE compaction_audit a SET table_id = t.table_id FROM compaction_table t
WHERE a.table_id IS NULL
  AND left(a.target, length('table ' || t.schema_name || '.' || t.table_name || ' '))
      = 'table ' || t.schema_name || '.' || t.table_name || ' ';
CREATE INDEX compaction_audit_table ON compaction_audit (table_id);

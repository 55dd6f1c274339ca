-- Why a plan entry does not run: a root named the only columns that changed, and their column lineage does not reach
-- the entry's job (or nothing it consumes is re-run). NULL: it runs. Pruned entries get no backfill_entry row.
ALTER TABLE backfill_plan_entry ADD COLUMN pruned TEXT;

-- A run a backfill started: its claim names the backfill. Such a run re-does history, so its output is not offered to
-- every downstream step as new data when it halts; the backfill offers it to exactly the runs it re-does next,
-- superseding the batch they consumed before (backfill_supersede). NULL for every live run.
ALTER TABLE run_claim ADD COLUMN backfill_id UUID;

-- Lifecycle events (JobHalted, JobFailed, step events) are applied only for a run queue-service holds a claim for,
-- and only to that run's target batch. The claim already records the run, its parent and its target batch, so runs
-- claimed before this migration are checked like new ones; these constraints make the database keep what the check
-- relies on.

-- A run's target is a real batch, never the placeholder of steps without input.
ALTER TABLE run_claim ADD CONSTRAINT run_claim_target_not_placeholder CHECK (target_batch_id <> 0);
ALTER TABLE run_claim ADD CONSTRAINT run_claim_ids_positive CHECK (instance_exec_id > 0 AND parent_process_id > 0);
ALTER TABLE run_claim ADD CONSTRAINT run_claim_run_target UNIQUE (instance_exec_id, target_batch_id);
CREATE INDEX run_claim_target ON run_claim (target_batch_id, parent_process_id);

-- The run a batch is bound to (the run producing it) holds a claim on exactly that batch. Checked at commit: a claim
-- creates or re-binds the batch before it inserts its own row.
ALTER TABLE batch ADD CONSTRAINT batch_bound_run_claimed_it
    FOREIGN KEY (source_instance_exec_id, batch_id) REFERENCES run_claim (instance_exec_id, target_batch_id)
    DEFERRABLE INITIALLY DEFERRED;

-- The event that made a trigger run due: an Oozie or Airflow parent's launcher hook is called with it (the
-- orchestrator drops a call it has seen), also when the sweep calls again for a run still pending (the service
-- stopped between the decision and the call, or the call failed). NULL for a run fired by its timeout.
ALTER TABLE trigger_run ADD COLUMN event_id VARCHAR(100);
-- When the sweep last called the hook again for the run: it calls at most once per batchyard.trigger.relaunch-after.
ALTER TABLE trigger_run ADD COLUMN relaunched_at TIMESTAMPTZ;
CREATE INDEX trigger_run_pending_since ON trigger_run (created_at) WHERE state = 'PENDING';

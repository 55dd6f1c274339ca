-- The all-enqueuers trigger policy: a parent starts when every enqueuing process of its steps (the upstream parents the
-- registry names in the steps' enqueuingProcessIds) has delivered a batch since its last triggered run.
ALTER TABLE trigger_policy DROP CONSTRAINT trigger_policy_policy_check;
ALTER TABLE trigger_policy ADD CONSTRAINT trigger_policy_policy_check
    CHECK (policy IN ('on-batch', 'all-enqueuers', 'none'));

-- One row per (parent, enqueuing process) that delivered since the parent's last triggered run: the latest batch it
-- delivered. The trigger that finds every enqueuer here deletes the parent's rows as it starts the run.
CREATE TABLE trigger_delivery (
    process_id       BIGINT      NOT NULL,
    enqueuer_id      BIGINT      NOT NULL,
    source_batch_id  BIGINT      NOT NULL,
    delivered_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (process_id, enqueuer_id)
);

-- The launcher hook of Oozie and Airflow parents: why its last launch failed (after its retries), shown by GET /why
-- until a launch succeeds.
ALTER TABLE trigger_policy ADD COLUMN launch_failure VARCHAR(1000);
ALTER TABLE trigger_policy ADD COLUMN launch_failed_at TIMESTAMPTZ;

-- queue-service: a batch belongs to the applications of the processes it is related to, whose permissions (the read
-- model's application_access) decide who may see it and who may change it.

-- The process a batch was registered for over REST: the enqueuing process of POST /batches, the step of POST /files.
-- With the runs that produced batches (run_claim) and the queue rows that offer them, it is how a batch's
-- applications are found. NULL for batches of runs, for the placeholder, and for batches registered before.
ALTER TABLE batch ADD COLUMN process_id BIGINT;

-- execution-service: the process log, a key/value log of execution statistics per process (an incremental import
-- keeps the last check-column value it read here and asks for it on its next run).

-- The stand-alone runner kept what its commands printed in a table named process_log. That name now belongs to the
-- process log below, so the runner's lines move, unchanged, to run_output; its sequence and indexes follow, so that
-- the new table's own get their natural names.
ALTER TABLE process_log RENAME TO run_output;
ALTER TABLE run_output RENAME CONSTRAINT process_log_pkey TO run_output_pkey;
ALTER TABLE run_output RENAME CONSTRAINT process_log_stream_check TO run_output_stream_check;
ALTER SEQUENCE process_log_log_id_seq RENAME TO run_output_log_id_seq;
ALTER INDEX process_log_run RENAME TO run_output_run;

CREATE TABLE process_log (
    log_id       BIGINT        GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- a process of the read model (parent or step); no foreign key, as the read model is a copy of the registry's
    process_id   BIGINT        NOT NULL CHECK (process_id > 0),
    log_category VARCHAR(2048) NOT NULL CHECK (log_category <> ''),
    message_id   VARCHAR(128)  NOT NULL CHECK (message_id <> ''),
    message      VARCHAR(1024) NOT NULL,
    -- usually the run (instance exec id) the entry belongs to; optional
    instance_ref BIGINT,
    add_ts       TIMESTAMPTZ   NOT NULL DEFAULT now()
);
-- Newest first per message (the last value; the category is filtered on the rows found, as a category of up to 2048
-- characters could exceed the size of a btree entry) and per process (listing).
CREATE INDEX process_log_message ON process_log (process_id, message_id, log_id DESC);
CREATE INDEX process_log_process ON process_log (process_id, log_id DESC);
-- The rows of a message with the highest instance_ref; rows without one sort last.
CREATE INDEX process_log_instance_ref ON process_log (process_id, message_id, instance_ref DESC NULLS LAST);

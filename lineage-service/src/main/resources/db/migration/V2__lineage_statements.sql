-- The statements of a registered script, one row each in script order, so a run's queries can be read statement by
-- statement as Hive ran them. Only lineage statements are rows: USE is applied to the statements after it (their
-- default_database), SET defines variables for them, and ADD JAR, DROP, LOAD, ... have no column lineage.
-- statement_text is the statement as it ran: comments removed and variables substituted.

-- Lets a statement's run be checked against its script's run (the composite key below).
ALTER TABLE lineage_query ADD CONSTRAINT lineage_query_run_key UNIQUE (query_id, instance_exec_id);

CREATE TABLE lineage_statement (
    query_id         UUID NOT NULL REFERENCES lineage_query ON DELETE CASCADE,
    -- Position in the script counting every statement (as "statement N:" in parse errors and warnings): the skipped
    -- ones leave gaps, so the numbers stay those of the script as written.
    statement_index  INT NOT NULL CHECK (statement_index BETWEEN 1 AND 100000),
    instance_exec_id BIGINT CHECK (instance_exec_id > 0),
    statement_text   TEXT NOT NULL CHECK (length(statement_text) BETWEEN 1 AND 1000000),
    default_database TEXT NOT NULL CHECK (length(default_database) >= 1),
    parse_status     TEXT NOT NULL CHECK (parse_status IN ('PARSED', 'FAILED')),
    parse_error      TEXT,
    registered_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (query_id, statement_index),
    CONSTRAINT statement_error_iff_failed CHECK ((parse_status = 'PARSED') = (parse_error IS NULL)),
    -- A statement runs in its script's run, never another (checked when the run is known).
    CONSTRAINT statement_run_is_script_run FOREIGN KEY (query_id, instance_exec_id)
        REFERENCES lineage_query (query_id, instance_exec_id) ON DELETE CASCADE
);
CREATE INDEX lineage_statement_run ON lineage_statement (instance_exec_id, registered_at, statement_index);

-- The server each registered process names, as the registry events carry it (never a credential): OpenLineage
-- names the datasets of a step's queries after it (hive://host:port). Null: the process names no server, or the
-- event came from a registry that did not carry servers yet.
ALTER TABLE registry_process
    ADD COLUMN server_id   BIGINT,
    ADD COLUMN server_name TEXT CHECK (length(server_name) <= 500),
    ADD COLUMN server_type TEXT CHECK (length(server_type) <= 500),
    ADD COLUMN server_host TEXT CHECK (length(server_host) <= 500),
    ADD COLUMN server_port INTEGER CHECK (server_port BETWEEN 1 AND 65535),
    ADD CHECK ((server_id IS NULL) = (server_name IS NULL AND server_type IS NULL));

-- The server a process works against (BDRE passed a step's server only as the --server-id argument of RegisterFile
-- and BatchEnqueuer; here a process names it once). OpenLineage names datasets after it (hive://host:port), so a
-- server gets the port its address needs; server_ip (an IP or a host name) stays the host.
ALTER TABLE server ADD COLUMN server_port INTEGER CHECK (server_port BETWEEN 1 AND 65535);

-- A live process naming a server keeps the server from being deleted (the service refuses with "still referenced");
-- a soft-deleted one lets go of it.
ALTER TABLE process ADD COLUMN server_id BIGINT REFERENCES server (server_id) ON DELETE SET NULL;
CREATE INDEX process_server ON process (server_id) WHERE server_id IS NOT NULL;

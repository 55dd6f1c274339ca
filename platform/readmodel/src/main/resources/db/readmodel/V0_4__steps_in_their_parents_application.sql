-- A step belongs to its parent's application: who may see or run a step is decided there. Steps projected before the
-- read model recorded them so take their parent's application now.
UPDATE process_definition s SET application_id = p.application_id
FROM process_definition p
WHERE s.parent_process_id = p.process_id AND s.application_id IS DISTINCT FROM p.application_id;

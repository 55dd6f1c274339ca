-- Every registry object belongs to an application, whose permissions decide who may read, change or delete it.
-- Hive table DDLs had none: the ones registered before go to the seeded default application, which is everyone's.
ALTER TABLE hive_table ADD COLUMN application_id BIGINT NOT NULL DEFAULT 1 REFERENCES application (application_id);
ALTER TABLE hive_table ALTER COLUMN application_id DROP DEFAULT;
CREATE INDEX hive_table_application ON hive_table (application_id);

-- A step runs in its parent's job, with its parent's batches: it belongs to its parent's application, and so does a
-- step template to its parent template's. Rows written before the service held to that take their parent's now (the
-- services that keep a read model already file a step under its parent's application).
UPDATE process s SET application_id = p.application_id
FROM process p
WHERE s.parent_process_id = p.process_id AND s.application_id <> p.application_id;

UPDATE process_template s SET application_id = p.application_id
FROM process_template p
WHERE s.parent_template_id = p.process_template_id AND s.application_id <> p.application_id;

-- A small BDRE installation, loaded after schema-mariadb.sql or schema-postgresql.sql. The test replaces {{ID}} with
-- a two-digit prefix and {{TAG}} with a word of its own, so that each database's import makes objects of its own on a
-- shared registry: process ids {{ID}}10-{{ID}}30 lie in the registry's range for chosen ids, 3{{ID}}000001 and
-- 3{{ID}}000002 beyond it. Plain SQL that MariaDB and PostgreSQL both accept.

-- master data, as BDRE seeds it (the types the installation uses)
INSERT INTO WORKFLOW_TYPE (workflow_id, workflow_type_name) VALUES
    (0, 'for steps only'), (1, 'oozie'), (2, 'stand alone'), (3, 'airflow');
INSERT INTO PERMISSION_TYPE (permission_type_id, permission_type_name) VALUES
    (0, 'No Permission'), (4, 'Read'), (6, 'Read and Write'), (7, 'Read,Write and Execute');
INSERT INTO PROCESS_TYPE (process_type_id, process_type_name, parent_process_type_id) VALUES
    (1, 'ingestion', NULL), (2, 'Semantic', NULL), (9, 'Hive Action', 2), (12, 'SFTP', 1), (22, 'Shell Action', 2),
    (25, 'Spark Action', 2);
INSERT INTO BUS_DOMAIN (bus_domain_id, description, bus_domain_name, bus_domain_owner) VALUES
    (1, 'Corporate Security Analytics', 'Corporate Security Analytics', 'bdre@wipro'),
    (2, 'Orders, returns and stock', 'Retail Sales {{TAG}}', 'ana'),
    (3, 'Card fraud signals', 'Fraud Watch {{TAG}}', 'bo');
INSERT INTO USERS (username, password, enabled) VALUES
    ('ana', 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3', TRUE),
    ('bo', 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3', TRUE);
INSERT INTO USER_ROLES (user_role_id, username, role) VALUES (1, 'ana', 'ROLE_ETL');

-- templates: BDRE's built-in template 0, and a semantic parent with one Hive step
INSERT INTO PROCESS_TEMPLATE (process_template_id, description, process_name, bus_domain_id, process_type_id,
                              parent_process_id, can_recover, batch_cut_pattern, next_process_template_id,
                              delete_flag, workflow_id) VALUES
    (0, 'default process', 'default process', 1, 1, NULL, TRUE, NULL, '', FALSE, 1),
    ({{ID}}5, 'A daily semantic job', 'daily semantic', 2, 2, NULL, TRUE, NULL, '{{ID}}6', FALSE, 1),
    ({{ID}}6, 'Runs the daily query', 'daily query', 2, 9, {{ID}}5, FALSE, NULL, '{{ID}}5', FALSE, 0);
INSERT INTO PROPERTIES_TEMPLATE (process_template_id, config_group, prop_temp_key, prop_temp_value, description) VALUES
    ({{ID}}6, 'query', 'query file', 'daily orders.hql', 'the query to run'),
    ({{ID}}6, 'param', 'run date', '${today}', '');

-- Retail Sales: an ingestion job, and a semantic job that consumes its batches through a fork/join tree
--   {{ID}}10 -> {{ID}}11 -> ({{ID}}12 | {{ID}}13) -> {{ID}}14 -> {{ID}}10
INSERT INTO PROCESS (process_id, description, process_name, bus_domain_id, process_type_id, parent_process_id,
                     can_recover, enqueuing_process_id, batch_cut_pattern, next_process_id, delete_flag, workflow_id,
                     user_name, owner_role_id, user_access_id, group_access_id, others_access_id) VALUES
    ({{ID}}20, 'Lands order files', 'orders-ingest', 2, 1, NULL, TRUE, '0', NULL, '{{ID}}21', FALSE, 1,
     'ana', 1, 7, 6, 4),
    ({{ID}}21, 'Fetches order files', 'orders-sftp', 2, 12, {{ID}}20, TRUE, '0', NULL, '{{ID}}20', FALSE, 0,
     'ana', 1, 7, 6, 4),
    ({{ID}}10, 'Sales figures', 'sales-semantic', 2, 2, NULL, TRUE, '0', NULL, '{{ID}}11', FALSE, 1,
     'ana', 1, 7, 6, 4),
    ({{ID}}11, '', 'load orders', 2, 9, {{ID}}10, TRUE, '{{ID}}20', 'EOD', '{{ID}}12,{{ID}}13', FALSE, 0,
     'ana', 1, 7, 6, 4),
    ({{ID}}12, 'Cleans returns', 'fork a', 2, 22, {{ID}}10, TRUE, '0', NULL, '{{ID}}14', FALSE, 0,
     'ana', 1, 7, 6, 4),
    ({{ID}}13, 'Scores stock', 'fork b', 2, 25, {{ID}}10, TRUE, '0', NULL, '{{ID}}14', FALSE, 0,
     'ana', 1, 7, 6, 4),
    ({{ID}}14, 'Joins both', 'join', 2, 9, {{ID}}10, FALSE, '0', NULL, '{{ID}}10', FALSE, 0,
     'ana', 1, 7, 6, 4),
    ({{ID}}30, 'Retired', 'old-job', 2, 1, NULL, TRUE, '0', NULL, '', TRUE, 1, 'ana', 1, 7, 6, 4);

-- Fraud Watch: ids beyond the registry's range for chosen ids, narrower permissions, no owner group
INSERT INTO PROCESS (process_id, description, process_name, bus_domain_id, process_type_id, parent_process_id,
                     can_recover, enqueuing_process_id, batch_cut_pattern, next_process_id, delete_flag, workflow_id,
                     user_name, owner_role_id, user_access_id, group_access_id, others_access_id) VALUES
    (3{{ID}}000001, 'Reads card events', 'fraud-ingest', 3, 1, NULL, TRUE, '0', NULL, '3{{ID}}000002', FALSE, 1,
     'bo', NULL, 7, 4, 0),
    (3{{ID}}000002, 'Pulls the event files', 'fraud-sftp', 3, 12, 3{{ID}}000001, TRUE, '0', NULL, '3{{ID}}000001',
     FALSE, 0, 'bo', NULL, 7, 4, 0);

-- properties: keys with spaces (inside and leading), every config group BDRE's steps use, two secret groups
INSERT INTO PROPERTIES (process_id, config_group, prop_key, prop_value, description) VALUES
    ({{ID}}11, 'query', 'hive query', 'SELECT *  FROM orders WHERE note = ''a  b''', 'the query'),
    ({{ID}}11, 'param', ' run date', '2024-05-01', ''),
    ({{ID}}12, 'script', 'shell script', 'clean_returns.sh --day today', 'what the step runs'),
    ({{ID}}13, 'param', 'spark conf', 'spark.executor.memory=2g', ''),
    ({{ID}}13, 'credential', 'db password', 'Prop-Secret-{{TAG}}-33', 'stock database'),
    ({{ID}}13, 'security', 'kerberos principal', 'etl@EXAMPLE.COM', ''),
    ({{ID}}14, 'dq', 'min rows', '100', 'fewer fails the run'),
    ({{ID}}21, 'imp-common', 'source dir', '/landing/orders in', 'where files land'),
    (3{{ID}}000002, 'mq', 'queue name', 'fraud.events', ''),
    (3{{ID}}000002, 'exp-common', 'target table', 'fraud_out', '');

-- servers: BDRE's seeded HDFS server, and an edge node with credentials
INSERT INTO SERVERS (server_id, server_type, server_name, server_metainfo, login_user, login_password,
                     ssh_private_key, server_ip) VALUES
    (123461, 'hdfs', 'localhost', '', '', '', '', '127.0.0.1'),
    ({{ID}}7, 'ssh', 'edge-{{TAG}}', 'edge node', 'etl', 'Server-Secret-{{TAG}}-91', '', '10.0.0.7');

-- What every installation starts with: the workflow types, run and batch states and process types that definitions
-- refer to, a first application, and the HDFS server that generated file-registration actions name.

INSERT INTO workflow_type (workflow_type_id, workflow_type_name) VALUES
    (0, 'for steps only'), (1, 'oozie'), (2, 'stand alone'), (3, 'airflow');

INSERT INTO exec_status (exec_state_id, description) VALUES
    (1, 'NOT RUNNING'), (2, 'RUNNING'), (3, 'SUCCESS'), (4, 'PAUSED'), (5, 'SUSPENDED'), (6, 'FAILED'),
    (7, 'KILLED'), (8, 'STARTED');

INSERT INTO batch_status (batch_state_id, description) VALUES
    (0, 'New'), (1, 'Processed'), (2, 'Accessed');

-- Parent-level types first (NULL parent type), then step types that reference them.
INSERT INTO process_type (process_type_id, process_type_name, parent_process_type_id) VALUES
    (1, 'ingestion', NULL), (2, 'Semantic', NULL), (3, 'Export', NULL), (4, 'Data Extraction', NULL),
    (5, 'Hive Data Load', NULL), (15, 'File Registration', NULL), (18, 'Hive Generation_Parent', NULL),
    (19, 'DQ_Parent', NULL), (20, 'MQ_Parent', NULL), (26, 'Filemon Parent', NULL), (28, 'Crawler Parent', NULL),
    (31, 'Migration', NULL), (37, 'Analytics UI', NULL), (39, 'SuperWorkflow', NULL), (41, 'Streaming Job', NULL),
    (86, 'Ml_Model', NULL), (103, 'Batch Transformation', NULL);

INSERT INTO process_type (process_type_id, process_type_name, parent_process_type_id) VALUES
    (6, 'Raw Load', 5), (7, 'Stage Load', 5), (8, 'Base Load', 5), (9, 'Hive Action', 2), (10, 'Pig Action', 2),
    (11, 'Map Reduce', 2), (12, 'SFTP', 1), (13, 'Data Import', 4), (14, 'Hive Generation', 18), (16, 'DQ', 19),
    (17, 'Data Export', 3), (21, 'MQ Step', 20), (22, 'Shell Action', 2), (23, 'Flume Action', 1), (24, 'R Action', 2),
    (25, 'Spark Action', 2), (27, 'file Monitor', 26), (29, 'Web Crawler', 28), (30, 'Hadoop Streaming', 2),
    (32, 'Preprocessing', 31), (33, 'Source Stage Load', 31), (34, 'Source to Dest Stage Copy', 31),
    (35, 'Destination Table Load', 31), (36, 'Register Partition', 31), (38, 'Analytics UI Action', 37),
    (40, 'SubWorkflow', 39), (42, 'source_Kafka', 41), (43, 'operator_Filter', 41), (44, 'persistentStore_HDFS', 41),
    (45, 'operator_Union', 41), (46, 'source_Twitter', 41), (47, 'source_Kinesis', 41), (48, 'source_MQTT', 41),
    (49, 'source_RabbitMQ', 41), (50, 'source_Socket', 41), (51, 'source_S3', 41), (52, 'emitter_Kafka', 41),
    (53, 'emitter_Kinesis', 41), (54, 'emitter_MQTT', 41), (55, 'emitter_RabbitMQ', 41), (56, 'emitter_Socket', 41),
    (57, 'emitter_JDBC', 41), (58, 'persistentStore_Hive', 41), (59, 'persistentStore_HBase', 41),
    (60, 'operator_Take', 41), (61, 'operator_Persist', 41), (62, 'operator_Repartition', 41),
    (65, 'operator_Joins', 41), (66, 'operator_Sort', 41), (67, 'operator_Aggregation', 41),
    (68, 'operator_Intersection', 41), (70, 'operator_Window', 41), (71, 'operator_Count', 41),
    (72, 'operator_Distinct', 41), (73, 'operator_MapToPair', 41), (74, 'operator_Map', 41),
    (75, 'operator_FlatMap', 41), (76, 'operator_Reduce', 41), (77, 'operator_ReduceByKey', 41),
    (78, 'operator_GroupByKey', 41), (79, 'operator_SortByKey', 41), (80, 'operator_DeDuplication', 41),
    (81, 'operator_Custom', 41), (82, 'operator_Enricher', 41), (83, 'persistentStore_Impala', 41),
    (85, 'analytics_KMeansClustering', 41), (87, 'SubProcess_ML_Model', 86), (102, 'source_HDFS', 41);

INSERT INTO application (application_id, name, description, owner) OVERRIDING SYSTEM VALUE VALUES
    (1, 'Corporate Security Analytics', 'Corporate Security Analytics', 'bdre@wipro');
SELECT setval(pg_get_serial_sequence('application', 'application_id'), 1);

-- The generated file-registration action names this server id.
INSERT INTO server (server_id, server_type, server_name, server_metainfo, server_ip) OVERRIDING SYSTEM VALUE VALUES
    (123461, 'hdfs', 'localhost', '', '127.0.0.1');

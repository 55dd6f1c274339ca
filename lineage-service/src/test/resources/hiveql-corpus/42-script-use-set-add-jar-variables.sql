-- nightly load; the scheduler passes --hivevar src=... --hivevar run_date=...
SET hive.exec.dynamic.partition.mode=nonstrict;
ADD JAR hdfs:///libs/udfs.jar;
USE ${hivevar:src};
INSERT OVERWRITE TABLE dw.customer_dim
SELECT customer_id, name, country FROM customers WHERE name <> 'a;b -- not a comment';
USE dw;
INSERT INTO TABLE order_facts SELECT o.order_id, 'n/a', o.amount, '${hivevar:run_date}' FROM sales.orders o

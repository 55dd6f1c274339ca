SET hive.exec.dynamic.partition.mode=nonstrict;
ADD JAR /opt/udfs.jar;
INSERT OVERWRITE TABLE dw.customer_dim SELECT customer_id, name, country FROM sales.customers

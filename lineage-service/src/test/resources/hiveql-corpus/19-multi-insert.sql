FROM sales.customers c
INSERT OVERWRITE TABLE dw.customer_dim SELECT c.customer_id, c.name, c.country
INSERT OVERWRITE TABLE dw.customers_copy SELECT *

INSERT OVERWRITE TABLE dw.customer_dim
SELECT TRANSFORM (customer_id, name, country) USING 'python clean.py' AS (customer_id, name_upper, country)
FROM sales.customers

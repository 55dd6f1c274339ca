INSERT OVERWRITE TABLE dw.customer_dim
SELECT customer_id, CASE WHEN country = 'DE' THEN upper(name) ELSE name END, country FROM sales.customers

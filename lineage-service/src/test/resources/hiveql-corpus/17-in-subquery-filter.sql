INSERT OVERWRITE TABLE dw.customer_dim
SELECT customer_id, name, country FROM sales.customers
WHERE customer_id IN (SELECT customer_id FROM sales.orders WHERE amount > 10)

INSERT OVERWRITE TABLE dw.customer_dim
SELECT c.customer_id, c.name, c.country FROM sales.customers c LEFT SEMI JOIN sales.orders o ON c.customer_id = o.customer_id

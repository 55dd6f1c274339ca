INSERT INTO TABLE dw.customer_dim (customer_id, country) SELECT customer_id, country FROM sales.customers WHERE email IS NOT NULL

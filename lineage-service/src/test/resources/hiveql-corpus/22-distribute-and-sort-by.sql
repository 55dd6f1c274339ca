INSERT OVERWRITE TABLE dw.customer_dim SELECT customer_id, name, country FROM sales.customers DISTRIBUTE BY country SORT BY customer_id

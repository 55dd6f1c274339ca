INSERT OVERWRITE TABLE dw.order_facts
SELECT order_id, customer_id, row_number() OVER (PARTITION BY customer_id ORDER BY order_ts), order_ts FROM sales.orders

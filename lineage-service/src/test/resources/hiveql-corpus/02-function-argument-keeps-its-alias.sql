INSERT OVERWRITE TABLE dw.order_facts
SELECT o.order_id, upper(c.name), o.amount * 1.1, to_date(o.order_ts)
FROM sales.orders o JOIN sales.customers c ON o.customer_id = c.customer_id

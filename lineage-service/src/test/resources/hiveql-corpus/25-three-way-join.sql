INSERT OVERWRITE TABLE dw.order_facts
SELECT o.order_id, concat(c.name, ' ', c.country), sum(i.qty * i.price), max(o.order_ts)
FROM sales.orders o
JOIN sales.customers c ON o.customer_id = c.customer_id
LEFT OUTER JOIN sales.items i ON i.order_id = o.order_id
GROUP BY o.order_id, c.name, c.country

WITH big AS (SELECT order_id, amount FROM sales.orders WHERE amount > 100)
INSERT OVERWRITE TABLE dw.order_facts SELECT b.order_id, 'unknown', b.amount, current_date() FROM big b

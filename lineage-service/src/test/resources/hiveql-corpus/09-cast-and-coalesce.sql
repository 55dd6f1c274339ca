INSERT OVERWRITE TABLE dw.order_facts
SELECT CAST(order_id AS BIGINT), coalesce(status, 'n/a'), amount, order_ts FROM sales.orders

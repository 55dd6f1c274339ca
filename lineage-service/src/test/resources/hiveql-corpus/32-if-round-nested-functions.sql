INSERT OVERWRITE TABLE dw.order_facts
SELECT order_id, if(status = 'X', 'cancelled', 'open'), round(amount, 2), from_unixtime(unix_timestamp(order_ts)) FROM sales.orders

INSERT OVERWRITE TABLE dw.daily_sales PARTITION (dt)
SELECT to_date(order_ts), 'ALL', sum(amount), to_date(order_ts) FROM sales.orders GROUP BY to_date(order_ts)

INSERT OVERWRITE TABLE dw.daily_sales PARTITION (dt='2024-05-01')
SELECT s.day, s.country, s.revenue FROM (
  SELECT to_date(o.order_ts) AS day, c.country, sum(o.amount) AS revenue
  FROM sales.orders o JOIN sales.customers c ON o.customer_id = c.customer_id
  GROUP BY to_date(o.order_ts), c.country) s

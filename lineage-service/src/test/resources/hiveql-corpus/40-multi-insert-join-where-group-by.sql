SET hive.exec.dynamic.partition=true;
USE sales;
FROM orders o
JOIN customers c ON o.customer_id = c.customer_id
INSERT OVERWRITE TABLE dw.daily_sales
  SELECT to_date(o.order_ts), c.country, sum(o.amount), '${hiveconf:dt}'
  WHERE o.status = 'PAID'
  GROUP BY to_date(o.order_ts), c.country
INSERT INTO TABLE dw.order_facts
  SELECT o.order_id, c.name, o.amount, to_date(o.order_ts)

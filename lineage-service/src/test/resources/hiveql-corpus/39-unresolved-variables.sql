INSERT OVERWRITE TABLE dw.daily_sales
SELECT to_date(order_ts), ${hivevar:country}, sum(amount), ${hiveconf:dt}
FROM ${hivevar:db}.orders
GROUP BY to_date(order_ts)

WITH a AS (SELECT customer_id, country FROM sales.customers),
     b AS (SELECT country, count(customer_id) AS cnt FROM a GROUP BY country)
INSERT OVERWRITE TABLE dw.daily_sales PARTITION (dt='2024-01-01') SELECT current_date(), b.country, b.cnt FROM b

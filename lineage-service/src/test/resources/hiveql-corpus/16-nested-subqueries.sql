INSERT OVERWRITE TABLE dw.customer_dim
SELECT x.customer_id, x.n, x.country FROM (
  SELECT y.customer_id, concat(y.name, '!') AS n, y.country FROM (
    SELECT customer_id, name, country FROM sales.customers WHERE country IS NOT NULL) y) x

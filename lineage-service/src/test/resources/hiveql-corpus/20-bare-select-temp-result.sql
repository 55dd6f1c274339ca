SELECT c.country, count(*) AS n FROM sales.customers c GROUP BY c.country

INSERT OVERWRITE TABLE sales.customers SELECT customer_id, upper(name), email, country FROM sales.customers

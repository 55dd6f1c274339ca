INSERT OVERWRITE DIRECTORY '/tmp/export' SELECT customer_id, name FROM sales.customers

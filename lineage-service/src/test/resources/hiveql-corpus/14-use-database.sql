USE sales;
INSERT OVERWRITE TABLE dw.customer_dim SELECT customer_id, lower(email), country FROM customers

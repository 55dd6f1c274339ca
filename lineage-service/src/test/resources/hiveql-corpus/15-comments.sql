-- daily load of the customer dimension
INSERT OVERWRITE TABLE dw.customer_dim /* target */ SELECT customer_id, name, country
FROM sales.customers -- a comment on the last line, no newline after it
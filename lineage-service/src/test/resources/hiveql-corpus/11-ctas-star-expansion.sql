CREATE TABLE dw.customers_copy AS SELECT * FROM sales.customers

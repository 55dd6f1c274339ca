INSERT OVERWRITE TABLE dw.customer_dim SELECT id, nm, ctry FROM stg.raw_customers

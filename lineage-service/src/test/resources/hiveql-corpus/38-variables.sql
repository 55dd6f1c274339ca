-- Variables from the registration (38-variables.vars) and from the script's own SET.
SET hivevar:src_db=sales;
INSERT OVERWRITE TABLE ${hiveconf:target_db}.customer_dim PARTITION (dt='${hivevar:run_date}')
SELECT customer_id, upper(name), country FROM ${src_db}.customers WHERE country <> '${env:SKIP_COUNTRY}'

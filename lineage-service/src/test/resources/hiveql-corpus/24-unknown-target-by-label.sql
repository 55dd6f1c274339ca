INSERT OVERWRITE TABLE dw.new_table SELECT i.order_id AS oid, i.qty * i.price AS line_total FROM sales.items i

CREATE VIEW dw.v_orders AS SELECT order_id, amount FROM sales.orders WHERE status = 'OK'

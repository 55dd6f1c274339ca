INSERT OVERWRITE TABLE dw.new_merge
SELECT coalesce(a.id, b.id) AS id, a.v AS left_v, b.v AS right_v
FROM stg.left_t a FULL OUTER JOIN stg.right_t b ON a.id = b.id

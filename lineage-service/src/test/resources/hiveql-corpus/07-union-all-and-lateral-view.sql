INSERT INTO TABLE dw.event_tags
SELECT event_id, 'none' FROM stg.events WHERE tags IS NULL
UNION ALL
SELECT e.event_id, t.tag FROM stg.events e LATERAL VIEW explode(e.tags) t AS tag

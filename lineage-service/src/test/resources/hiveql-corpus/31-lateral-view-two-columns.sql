INSERT OVERWRITE TABLE dw.event_tags
SELECT e.event_id, concat(k, '=', v) FROM stg.events e LATERAL VIEW explode(str_to_map(e.payload)) kv AS k, v

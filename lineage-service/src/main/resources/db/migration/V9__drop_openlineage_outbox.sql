-- OpenLineage RunEvents now leave through the platform outbox (outbox_event, topic batchyard.lineage.openlineage) and
-- are delivered by consumers of that topic: the push outbox of V3/V4 has no reader or writer any more.
DROP TABLE IF EXISTS openlineage_outbox;

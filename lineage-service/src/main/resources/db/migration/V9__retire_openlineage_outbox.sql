-- OpenLineage RunEvents now leave through the platform outbox (outbox_event, topic batchyard.lineage.openlineage) and
-- are delivered by consumers of that topic: nothing writes the push outbox of V3/V4 any more. The table stays, with
-- whatever an earlier release left undelivered in it, until the service has moved those events into the platform
-- outbox at start (PushBacklogService); a later release drops it once every installation has started this one.
COMMENT ON TABLE openlineage_outbox IS
    'Retired: read once at start, its undelivered events moved into outbox_event; dropped by a later release';

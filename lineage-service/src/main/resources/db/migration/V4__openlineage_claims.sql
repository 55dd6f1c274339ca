-- OpenLineage relay: claim-then-send. A relay claims a run's due rows for a lease in a short transaction, sends them
-- with no transaction open, then marks each sent or reschedules it. The lease keeps another replica off the rows while
-- they are on the wire; a relay that dies mid-send loses its claim when the lease runs out.
ALTER TABLE openlineage_outbox
    ADD COLUMN claim_token   UUID,
    ADD COLUMN claimed_until TIMESTAMPTZ,
    ADD CONSTRAINT openlineage_outbox_claim CHECK ((claim_token IS NULL) = (claimed_until IS NULL));

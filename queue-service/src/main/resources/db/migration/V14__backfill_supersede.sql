-- A backfill offers a restated batch again to a step that already consumed it: the new queue row supersedes the
-- step's archived consumption of the batch. The link says so for good (the new row keeps its queue id when it is
-- archived in turn), and one archived consumption is superseded at most once per backfill.
CREATE TABLE backfill_supersede (
    -- the new row: consumption_queue's, later archived_queue's, queue id
    queue_id            BIGINT      PRIMARY KEY,
    -- the archived row it supersedes (archived_queue.queue_id)
    superseded_queue_id BIGINT      NOT NULL,
    backfill_id         UUID        NOT NULL,
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (superseded_queue_id, backfill_id)
);
CREATE INDEX backfill_supersede_backfill ON backfill_supersede (backfill_id);

-- The retention job (Retention) deletes published outbox rows and ledger rows older than its window, a small batch per
-- statement. These indexes let each batch find its oldest rows directly instead of scanning the table; unpublished
-- outbox rows stay out of the first one (they are never deleted, and the relay finds them through
-- outbox_event_unpublished).
CREATE INDEX outbox_event_published ON outbox_event (published_at) WHERE published_at IS NOT NULL;
CREATE INDEX processed_event_processed_at ON processed_event (processed_at);

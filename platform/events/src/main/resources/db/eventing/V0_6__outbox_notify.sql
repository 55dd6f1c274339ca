-- Wakes the outbox relay when outbox rows commit, instead of having it poll. A NOTIFY is delivered only when its
-- transaction commits (never for one that rolls back), which is exactly when the rows become visible to the relay, and
-- PostgreSQL folds identical notifications of one transaction into one. Statement-level, so every inserter is covered
-- (Hibernate's batched inserts, fixtures, manual repairs) at one notification per statement at most.
CREATE FUNCTION outbox_event_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('batchyard_outbox', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER outbox_event_notify
    AFTER INSERT ON outbox_event
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_event_notify();

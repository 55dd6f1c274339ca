-- Shared by every service (each in its own database). Versioned 0.x so that services' own migrations start at V1.

-- Transactional outbox: written in the same transaction as the state change it announces, relayed to Kafka afterwards.
CREATE TABLE outbox_event (
    position      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id      UUID        NOT NULL UNIQUE,
    topic         TEXT        NOT NULL,
    record_key    TEXT        NOT NULL,
    event_type    TEXT        NOT NULL,
    payload       BYTEA       NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    published_at  TIMESTAMPTZ,
    attempts      INT         NOT NULL DEFAULT 0,
    last_error    TEXT
);
CREATE INDEX outbox_event_unpublished ON outbox_event (position) WHERE published_at IS NULL;

-- Idempotent-consumer ledger: the event id is recorded in the same transaction as the consumer's effect.
CREATE TABLE processed_event (
    consumer      TEXT        NOT NULL,
    event_id      UUID        NOT NULL,
    event_type    TEXT        NOT NULL,
    processed_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
);

-- The W3C traceparent each event is published with (the trace of the call, command or event that led to it). Rows
-- appended before this column existed have none; the relay starts a trace for them.
ALTER TABLE outbox_event ADD COLUMN traceparent VARCHAR(55);

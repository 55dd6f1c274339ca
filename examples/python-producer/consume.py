#!/usr/bin/python3
"""Prints the BatchEnqueued events of batchyard.queue.batches as JSON, decoded through the schema registry alone (no
Batchyard code): what any tool that speaks the Confluent-compatible registry API sees.

    /usr/bin/python3 consume.py [seconds] [topic] [event type]

reads ``topic`` (default batchyard.queue.batches) from the beginning for ``seconds`` (default 10) and prints one JSON
line per record whose ``event-type`` header is ``event type`` (default BatchEnqueued; ``*`` for every record): its
type, key, ``traceparent`` header and the decoded event.

Settings (environment): KAFKA_BOOTSTRAP (127.0.0.1:9092), SCHEMA_REGISTRY_URL (http://127.0.0.1:8085).
Needs Debian's python3-confluent-kafka and python3-avro.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import datetime
from typing import Any, List

from confluent_kafka import Consumer
from confluent_kafka.avro.serializer import SerializerError
from confluent_kafka.avro.serializer.message_serializer import MessageSerializer

from contract import BATCHES_TOPIC, bootstrap, run, schema_registry


def plain(value: Any) -> Any:
    """JSON for what the Avro reader answers: a timestamp-millis as epoch milliseconds."""
    if isinstance(value, datetime):
        return int(value.timestamp() * 1000)
    if isinstance(value, bytes):
        return value.hex()
    raise TypeError(type(value).__name__)


def main(args: List[str]) -> int:
    seconds = float(args[0]) if args else 10.0
    topic = args[1] if len(args) > 1 else BATCHES_TOPIC
    wanted = args[2] if len(args) > 2 else "BatchEnqueued"
    registry = schema_registry()
    serializer = MessageSerializer(registry)
    consumer = Consumer({"bootstrap.servers": bootstrap(),
                         "group.id": "batchyard-python-consumer-%d-%d" % (os.getpid(), int(time.time() * 1000)),
                         "auto.offset.reset": "earliest", "enable.auto.commit": False})
    consumer.subscribe([topic])
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            message = consumer.poll(min(1.0, max(0.0, end - time.monotonic())))
            if message is None:
                continue
            if message.error() is not None:
                print("python-consumer: %s" % message.error(), file=sys.stderr)
                continue
            headers = dict(message.headers() or [])
            kind = headers.get("event-type", b"?").decode("utf-8", "replace")
            if wanted != "*" and kind != wanted:
                continue
            line = {"type": kind, "key": message.key().decode("utf-8", "replace") if message.key() else None}
            if "traceparent" in headers:  # the trace the event belongs to (W3C Trace Context)
                line["traceparent"] = headers["traceparent"].decode("ascii", "replace")
            try:
                line["event"] = serializer.decode_message(message.value())
            except SerializerError as e:
                # Records written before the registry (single-object encoding) are not in the registry's format.
                line["undecodable"] = str(e)
            print(json.dumps(line, default=plain), flush=True)
    finally:
        consumer.close()
    return 0


if __name__ == "__main__":
    run(main, "python-consumer")

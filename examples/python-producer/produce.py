#!/usr/bin/python3
"""Runs a job from outside the JVM: sends INIT_JOB and then HALT_JOB for a registered process as LifecycleCommand
records on batchyard.execution.commands, in the schema registry's wire format (magic byte 0, the schema's 4-byte id,
the Avro body), with the caller's bearer token.

    BATCHYARD_TOKEN=<access token> /usr/bin/python3 produce.py <processId> [batchMarking]

Settings (environment): KAFKA_BOOTSTRAP (127.0.0.1:9092), SCHEMA_REGISTRY_URL (http://127.0.0.1:8085, the
registry's base URL; its Confluent-compatible API is used), BATCHYARD_TOKEN (an operator's token; required),
TRACEPARENT (optional W3C traceparent: the events the commands lead to are published in that trace).

Needs Debian's python3-confluent-kafka and python3-avro (its schema-registry serde ``confluent_kafka.avro``).
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from datetime import datetime, timezone
from typing import List, Optional

from avro import schema as avro_schema
from confluent_kafka import Producer
from confluent_kafka.avro.serializer.message_serializer import MessageSerializer

from contract import COMMANDS_TOPIC, bootstrap, run, schema, schema_registry, subject


def main(args: List[str]) -> int:
    if not args or not args[0].isdigit() or int(args[0]) <= 0:
        print("usage: BATCHYARD_TOKEN=<token> /usr/bin/python3 produce.py <processId> [batchMarking]", file=sys.stderr)
        return 2
    process_id = int(args[0])
    batch_marking: Optional[str] = args[1] if len(args) > 1 and args[1] else None
    token = os.environ.get("BATCHYARD_TOKEN")
    if not token:
        print("BATCHYARD_TOKEN is required: commands without an identity are refused", file=sys.stderr)
        return 2

    registry = schema_registry()
    avro = schema("execution/LifecycleCommand.avsc")
    writer = avro_schema.parse(json.dumps(avro))
    # Registering an unchanged schema answers the id it already has (the Java services' registration, typically).
    schema_id = registry.register(subject(COMMANDS_TOPIC, avro), writer)
    serializer = MessageSerializer(registry)

    producer = Producer({"bootstrap.servers": bootstrap(),
                         "client.id": "batchyard-python-producer", "enable.idempotence": True, "acks": "all"})
    failures: List[str] = []

    def delivered(error, message) -> None:  # type: ignore[no-untyped-def]
        if error is not None:
            failures.append(str(error))

    for command in ("INIT_JOB", "HALT_JOB"):
        event_id = uuid.uuid4()
        value = serializer.encode_record_with_schema_id(schema_id, {
            "header": {"eventId": str(event_id), "occurredAt": datetime.now(timezone.utc),
                       "producer": "python-producer", "schemaVersion": 1, "instanceExecId": None,
                       "correlationId": None, "actor": None},
            "command": command,
            "processId": process_id,
            "maxBatch": None,
            "batchMarking": batch_marking if command == "HALT_JOB" else None,
            "errorCode": None,
            "errorText": None,
        })
        headers = [("authorization", "Bearer " + token), ("event-type", "LifecycleCommand"),
                   ("event-id", event_id.bytes)]
        if os.environ.get("TRACEPARENT"):
            headers.append(("traceparent", os.environ["TRACEPARENT"]))
        # Same key for both: one partition, so INIT_JOB is applied before HALT_JOB.
        producer.produce(COMMANDS_TOPIC, key=str(process_id), value=value, headers=headers, on_delivery=delivered)
        if producer.flush(30) > 0 or failures:
            print("python-producer: %s not delivered: %s" % (command, "; ".join(failures) or "timed out"),
                  file=sys.stderr)
            return 1
        print("sent %s for process %d (event %s, schema id %d)" % (command, process_id, event_id, schema_id))
    return 0


if __name__ == "__main__":
    run(main, "python-producer")

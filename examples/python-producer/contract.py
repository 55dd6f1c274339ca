"""The contract's schemas, read from the repository's .avsc files (schemas/contract/src/main/avro), with the shared
types they name written inline: the registry keeps one self-contained schema per subject, as the Java services
register them."""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, Dict, List, Set

from confluent_kafka import KafkaException
from confluent_kafka.avro import CachedSchemaRegistryClient

AVRO = os.environ.get("BATCHYARD_AVRO_DIR") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "schemas", "contract", "src", "main", "avro")

#: The topic execution-service reads lifecycle commands from, and the one queue-service announces batches on.
COMMANDS_TOPIC = "batchyard.execution.commands"
BATCHES_TOPIC = "batchyard.queue.batches"


def _read(relative: str) -> Any:
    with open(os.path.join(AVRO, relative), encoding="utf-8") as f:
        return json.load(f)


_SHARED = {
    "io.batchyard.events.EventHeader": "common/EventHeader.avsc",
    "io.batchyard.events.LifecycleCommandType": "common/LifecycleCommandType.avsc",
    "io.batchyard.events.ProcessDefinition": "common/ProcessDefinition.avsc",
}


def _inline(node: Any, defined: Set[str]) -> Any:
    """Replaces the first mention of each shared type by its definition (Avro allows a name only after its
    definition)."""
    if isinstance(node, str):
        if node in _SHARED and node not in defined:
            defined.add(node)
            return _inline(_read(_SHARED[node]), defined)
        return node
    if isinstance(node, list):
        return [_inline(n, defined) for n in node]
    if isinstance(node, dict):
        return {k: _inline(v, defined) if k in ("type", "items", "fields") else v for k, v in node.items()}
    return node


def schema(relative: str) -> Dict[str, Any]:
    """The self-contained schema of an event, e.g. ``schema("execution/LifecycleCommand.avsc")``."""
    return _inline(_read(relative), set())


def subject(topic: str, avro: Dict[str, Any]) -> str:
    """The subject a record of this schema is kept under on this topic: ``<topic>-<full record name>``."""
    return "%s-%s.%s" % (topic, avro["namespace"], avro["name"])


def schema_registry() -> CachedSchemaRegistryClient:
    """The registry named by SCHEMA_REGISTRY_URL (its base URL), through its Confluent-compatible API (Apicurio serves
    it at /apis/ccompat/v7)."""
    url = os.environ.get("SCHEMA_REGISTRY_URL", "http://127.0.0.1:8085")
    return CachedSchemaRegistryClient({"url": url.rstrip("/") + "/apis/ccompat/v7"})


def bootstrap() -> str:
    """The brokers named by KAFKA_BOOTSTRAP."""
    return os.environ.get("KAFKA_BOOTSTRAP", "127.0.0.1:9092")


def run(main: Callable[[List[str]], int], name: str) -> None:
    """Runs a script's ``main`` with its arguments and exits with its status; a Kafka failure is one line and 1."""
    try:
        sys.exit(main(sys.argv[1:]))
    except KafkaException as e:
        print("%s: %s" % (name, e), file=sys.stderr)
        sys.exit(1)

"""The services' answers as plain records (the Java client's records, with Python names)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple


@dataclass(frozen=True)
class JobStart:
    """InitJob's answer: the run (``instance_exec_id``), the batch it produces, where it resumes (None on a fresh
    start), whether it retries a failed run, and ``outputs``, the keys a workflow reads (``instance-exec-id``,
    ``target-batch-id``, ``min-batch-id-map.<step>``, …)."""

    instance_exec_id: int
    target_batch_id: int
    last_recoverable_sp_id: Optional[int]
    retry: bool
    outputs: Dict[str, str] = field(default_factory=dict)

    @staticmethod
    def of(n: Mapping[str, Any]) -> "JobStart":
        return JobStart(int(n["instanceExecId"]), int(n["targetBatchId"]), n.get("lastRecoverableSpId"),
                        bool(n.get("retry", False)), dict(n.get("outputs") or {}))

    def batch_range(self, sub_process_id: int) -> Optional[Tuple[int, int]]:
        """The lowest and highest batch id InitJob claimed for step ``sub_process_id``, or None when it claimed none."""
        low = self.outputs.get("min-batch-id-map.%d" % sub_process_id)
        high = self.outputs.get("max-batch-id-map.%d" % sub_process_id)
        if not low or not high or low == "null" or high == "null":
            return None
        return int(low), int(high)


@dataclass(frozen=True)
class StepStart:
    """InitStep's answer: the step's run."""

    sub_instance_exec_id: int
    sub_process_id: int

    @staticmethod
    def of(n: Mapping[str, Any]) -> "StepStart":
        return StepStart(int(n["subInstanceExecId"]), int(n["subProcessId"]))


@dataclass(frozen=True)
class JobEnded:
    """HaltJob's or TermJob's answer: the run as it ended (``state`` SUCCESS or FAILED)."""

    process_id: int
    instance_exec_id: int
    state: str
    target_batch_id: Optional[int]
    batch_marking: Optional[str]

    @staticmethod
    def of(n: Mapping[str, Any]) -> "JobEnded":
        return JobEnded(int(n["processId"]), int(n["instanceExecId"]), str(n["state"]), n.get("targetBatchId"),
                        n.get("batchMarking"))


@dataclass(frozen=True)
class FileToRegister:
    """A file for RegisterFile. ``batch_id`` None or 0 makes a new batch; ``creation_ts`` is ISO-8601 with an offset
    (e.g. ``2024-05-01T10:00:00Z``) or None."""

    sub_process_id: Optional[int]
    server_id: int
    path: str
    file_size: int
    file_hash: Optional[str] = None
    creation_ts: Optional[str] = None
    batch_id: Optional[int] = None

    def body(self) -> Dict[str, Any]:
        """The request body, with the service's field names."""
        return _without_none({"subProcessId": self.sub_process_id, "serverId": self.server_id, "path": self.path,
                              "fileSize": self.file_size, "fileHash": self.file_hash, "creationTs": self.creation_ts,
                              "batchId": self.batch_id})


@dataclass(frozen=True)
class RegisteredFile:
    """RegisterFile's answer: the file as stored, under ``batch_id``."""

    batch_id: int
    server_id: int
    path: str
    file_size: int
    file_hash: Optional[str]
    creation_ts: Optional[str]

    @staticmethod
    def of(n: Mapping[str, Any]) -> "RegisteredFile":
        return RegisteredFile(int(n["batchId"]), int(n["serverId"]), str(n["path"]), int(n["fileSize"]),
                              n.get("fileHash"), n.get("creationTs"))


@dataclass(frozen=True)
class LogEntry:
    """A process log entry: ``message`` (the value) under ``category`` and ``message_id`` (the key), optionally for a
    run (``instance_ref``). ``log_id``, ``process_id`` and ``add_ts`` are the service's (None in an entry to add;
    ``add_ts`` may be set to record a past time)."""

    category: str
    message_id: str
    message: str
    instance_ref: Optional[int] = None
    add_ts: Optional[str] = None
    log_id: Optional[int] = None
    process_id: Optional[int] = None

    @staticmethod
    def of(n: Mapping[str, Any]) -> "LogEntry":
        return LogEntry(n.get("category"), n.get("messageId"), n.get("message"),  # type: ignore[arg-type]
                        n.get("instanceRef"), n.get("addTs"), n.get("logId"), n.get("processId"))


@dataclass(frozen=True)
class Property:
    """A process property. A secret one (``credential``/``security`` groups) is answered with a None value."""

    config_group: str
    key: str
    value: Optional[str]
    secret: bool
    description: Optional[str]

    @staticmethod
    def of(n: Mapping[str, Any]) -> "Property":
        return Property(n.get("configGroup"), n.get("key"), n.get("value"),  # type: ignore[arg-type]
                        bool(n.get("secret", False)), n.get("description"))


def _without_none(d: Dict[str, Any]) -> Dict[str, Any]:
    """Absent rather than null, as the Java client sends its bodies."""
    return {k: v for k, v in d.items() if v is not None}


def items(page: Any) -> List[Any]:
    """The ``items`` of a page answer (a bare list is taken as it is)."""
    if isinstance(page, list):
        return page
    return list((page or {}).get("items") or [])

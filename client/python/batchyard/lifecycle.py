"""The lifecycle as ``with`` blocks: a job's run and its steps end as the block ends, halted or terminated."""

from __future__ import annotations

import logging
from types import TracebackType
from typing import TYPE_CHECKING, Dict, Optional, Tuple, Type

from .model import FileToRegister, JobEnded, JobStart, LogEntry, RegisteredFile, StepStart

if TYPE_CHECKING:  # the client imports this module; the name is needed for type hints only
    from .client import Client

LOG = logging.getLogger("batchyard")


def failure_text(error: BaseException) -> str:
    """What TermJob says about ``error``: its type and its text (``ValueError: no rows for 2024-09-01``)."""
    text = str(error)
    return type(error).__name__ + (": " + text if text else "")


class JobRun:
    """One run of a parent process, as ``with client.job(process_id) as run:``.

    Entering makes InitJob (:attr:`start` holds its answer). Leaving normally makes HaltJob with
    :attr:`batch_marking` (which the block may set); leaving by an exception makes TermJob with :attr:`failure_code`
    and :func:`failure_text` of the exception, and the exception goes on. A TermJob that fails itself is logged, never
    raised in place of the job's own error. :attr:`ended` holds HaltJob's or TermJob's answer.
    """

    def __init__(self, client: "Client", process_id: int, max_batch: Optional[int] = None,
                 batch_marking: Optional[str] = None, failure_code: Optional[int] = None) -> None:
        self.client = client
        self.process_id = process_id
        self.max_batch = max_batch
        self.batch_marking = batch_marking
        self.failure_code = failure_code
        self.start: Optional[JobStart] = None
        self.ended: Optional[JobEnded] = None

    def __enter__(self) -> "JobRun":
        self.start = self.client.init_job(self.process_id, self.max_batch)
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 trace: Optional[TracebackType]) -> bool:
        if error is None:
            self.ended = self.client.halt_job(self.process_id, self.batch_marking)
            return False
        try:
            self.ended = self.client.term_job(self.process_id, self.failure_code, failure_text(error))
        except Exception as term_failed:  # the job's own error is what the caller must see
            LOG.warning("TermJob of process %d failed after %s: %s", self.process_id, failure_text(error),
                        term_failed)
        return False

    def _started(self) -> JobStart:
        if self.start is None:
            raise RuntimeError("the job's run has not started: use it as `with client.job(...) as run:`")
        return self.start

    @property
    def instance_exec_id(self) -> int:
        """The run's id (InitJob's ``instanceExecId``)."""
        return self._started().instance_exec_id

    @property
    def target_batch_id(self) -> int:
        """The batch this run produces."""
        return self._started().target_batch_id

    @property
    def outputs(self) -> Dict[str, str]:
        """InitJob's outputs, the keys a workflow reads (``min-batch-id-map.<step>``, ``target-batch-marking``, …)."""
        return self._started().outputs

    def batches(self, sub_process_id: int) -> Optional[Tuple[int, int]]:
        """The lowest and highest batch id claimed for step ``sub_process_id`` (None when it claimed none)."""
        return self._started().batch_range(sub_process_id)

    def step(self, sub_process_id: int) -> "StepRun":
        """Step ``sub_process_id`` of this run as a ``with`` block: InitStep, then HaltStep or TermStep."""
        return StepRun(self, sub_process_id)

    def log(self, category: str, message_id: str, message: str, process_id: Optional[int] = None) -> LogEntry:
        """AddProcessLog for this run (of ``process_id``, the parent unless given)."""
        return self.client.add_process_log(self.process_id if process_id is None else process_id,
                                           LogEntry(category, message_id, message, self.instance_exec_id))


class StepRun:
    """One step of a running job, as ``with run.step(sub_process_id) as step:``.

    Entering makes InitStep (:attr:`start`); leaving normally makes HaltStep; leaving by an exception makes TermStep
    and the exception goes on (to the job's block, which then makes TermJob).
    """

    def __init__(self, job: JobRun, sub_process_id: int) -> None:
        self.job = job
        self.sub_process_id = sub_process_id
        self.start: Optional[StepStart] = None

    def __enter__(self) -> "StepRun":
        self.start = self.job.client.init_step(self.sub_process_id)
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 trace: Optional[TracebackType]) -> bool:
        if error is None:
            self.job.client.halt_steps([self.sub_process_id])
            return False
        try:
            self.job.client.term_step(self.sub_process_id)
        except Exception as term_failed:  # the step's own error is what the caller must see
            LOG.warning("TermStep of sub-process %d failed after %s: %s", self.sub_process_id, failure_text(error),
                        term_failed)
        return False

    def register_file(self, path: str, file_size: int, server_id: int, file_hash: Optional[str] = None,
                      creation_ts: Optional[str] = None, batch_id: Optional[int] = None) -> RegisteredFile:
        """RegisterFile for this step: the file goes into ``batch_id`` (a new batch when None or 0)."""
        return self.job.client.register_file(FileToRegister(self.sub_process_id, server_id, path, file_size,
                                                            file_hash, creation_ts, batch_id))

    def log(self, category: str, message_id: str, message: str) -> LogEntry:
        """AddProcessLog for this step in the job's run."""
        return self.job.log(category, message_id, message, self.sub_process_id)

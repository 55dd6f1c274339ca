"""Batchyard's calls for jobs over REST, as the Java client ``io.batchyard.client.BatchyardClient`` makes them."""

from __future__ import annotations

import json
import time
import urllib.parse
from datetime import datetime, timezone
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from .lifecycle import JobRun
from .model import FileToRegister, JobEnded, JobStart, LogEntry, Property, RegisteredFile, StepStart, items
from .problems import ProblemError, problem_of
from .settings import ClientSettings
from .transport import ConnectFailure, Response, Transport, urllib_transport

_ACCEPT = "application/json, application/problem+json"


class Client:
    """Batchyard's calls for jobs: the lifecycle (InitJob, InitStep, HaltStep, TermStep, HaltJob, TermJob) and the
    process log on execution-service, RegisterFile and the consumption queue on queue-service, properties on
    registry-service, lineage queries on lineage-service.

    Every call is synchronous, sends the settings' bearer token, repeats a 503 (and a refused connection) by the
    :class:`~batchyard.retry.RetryRule`, repeats a 401 once with a fresh token, and turns any other refusal into a
    :class:`~batchyard.problems.ProblemError` carrying Batchyard's numeric code. Thread-safe.

    :param settings: the services' URLs, token source and retry rule; None reads them from the environment
        (:meth:`ClientSettings.from_environment`)
    :param transport: one HTTP exchange (tests replace it)
    :param sleep: how the client waits between attempts (tests replace it)
    """

    def __init__(self, settings: Optional[ClientSettings] = None, *, transport: Transport = urllib_transport,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.settings = settings if settings is not None else ClientSettings.from_environment()
        self._transport = transport
        self._sleep = sleep

    # ---- the lifecycle as a context (execution-service) ----

    def job(self, process_id: int, max_batch: Optional[int] = None, batch_marking: Optional[str] = None,
            failure_code: Optional[int] = None) -> JobRun:
        """A run of parent ``process_id`` as a ``with`` block: InitJob on entry; on exit HaltJob (with
        ``run.batch_marking``, initially ``batch_marking``), or, when the block raises, TermJob with ``failure_code``
        and the exception's text, and the exception goes on. See :class:`~batchyard.lifecycle.JobRun`."""
        return JobRun(self, process_id, max_batch, batch_marking, failure_code)

    # ---- lifecycle calls (execution-service) ----

    def init_job(self, process_id: int, max_batch: Optional[int] = None) -> JobStart:
        """InitJob: starts (or retries) a run of parent ``process_id``, claiming up to ``max_batch`` batches per step
        (None: the service's default)."""
        body = {} if max_batch is None else {"maxBatch": max_batch}
        return JobStart.of(self._post(self.settings.execution, "/jobs/%d/init" % process_id, body))

    def init_step(self, sub_process_id: int) -> StepStart:
        """InitStep: step ``sub_process_id`` of the running parent starts."""
        return StepStart.of(self._post(self.settings.execution, "/steps/%d/init" % sub_process_id, None))

    def halt_steps(self, sub_process_ids: Sequence[int]) -> List[int]:
        """HaltStep: the steps completed (each in its own transaction, in order); answers the halted ids."""
        if not sub_process_ids:
            raise ValueError("HaltStep needs at least one sub-process id")
        ids = ",".join(str(int(s)) for s in sub_process_ids)
        answer = self._post(self.settings.execution, "/steps/%s/halt" % ids, None)
        return [int(s) for s in answer.get("subProcessIds") or []]

    def halt_step(self, sub_process_id: int) -> List[int]:
        """HaltStep of one step."""
        return self.halt_steps([sub_process_id])

    def term_step(self, sub_process_id: int) -> None:
        """TermStep: step ``sub_process_id`` failed."""
        self._post(self.settings.execution, "/steps/%d/term" % sub_process_id, None)

    def halt_job(self, process_id: int, batch_marking: Optional[str] = None) -> JobEnded:
        """HaltJob: the run completed; its target batch is handed downstream with ``batch_marking`` (may be None)."""
        body = {} if batch_marking is None else {"batchMarking": batch_marking}
        return JobEnded.of(self._post(self.settings.execution, "/jobs/%d/halt" % process_id, body))

    def term_job(self, process_id: int, code: Optional[int] = None, text: Optional[str] = None) -> JobEnded:
        """TermJob: the run failed; ``code`` and ``text`` (both optional) say why and are kept on the run. A text
        longer than the service keeps (:data:`MAX_FAILURE_TEXT` UTF-16 units) is cut, so the run still ends."""
        body: Optional[Dict[str, Any]] = None
        if code is not None or text is not None:
            body = {k: v for k, v in (("code", code), ("text", fit_text(text))) if v is not None}
        return JobEnded.of(self._post(self.settings.execution, "/jobs/%d/term" % process_id, body))

    # ---- files and the consumption queue (queue-service) ----

    def register_file(self, file: FileToRegister) -> RegisteredFile:
        """RegisterFile: records a file under a batch (a new batch when the file's batch id is None or 0)."""
        return RegisteredFile.of(self._post(self.settings.queue, "/files", file.body()))

    def queue(self, sub_process_id: int, state: Optional[str] = None, limit: int = 50, offset: int = 0) -> Any:
        """``GET /queue``: the consumption queue rows (the batches offered) of step ``sub_process_id``, oldest
        first; ``state`` 0, 1 or 2 filters."""
        return self._get(self.settings.queue, "/queue" + _query(processId=sub_process_id, state=state, limit=limit,
                                                                offset=offset))

    # ---- process log (execution-service) ----

    def add_process_log(self, process_id: int, entry: LogEntry) -> LogEntry:
        """AddProcessLog: records the entry for ``process_id``; answers it with its log id and time."""
        body = {"category": entry.category, "messageId": entry.message_id, "message": entry.message,
                "instanceRef": entry.instance_ref, "addTs": entry.add_ts}
        return LogEntry.of(self._post(self.settings.execution, "/processes/%d/log" % process_id,
                                      {k: v for k, v in body.items() if v is not None}))

    def read_process_log(self, process_id: int, category: Optional[str] = None, message_id: Optional[str] = None,
                         limit: int = 50) -> List[LogEntry]:
        """The process's entries, newest first, filtered by category and/or message id (each may be None)."""
        page = self._get(self.settings.execution, "/processes/%d/log" % process_id
                         + _query(category=category, messageId=message_id, limit=limit))
        return [LogEntry.of(e) for e in items(page)]

    def last_process_log_value(self, process_id: int, message_id: str, category: str) -> Optional[LogEntry]:
        """getLastValue: the newest entry of ``message_id`` in ``category``, or None when there is none (414)."""
        try:
            n = self._get(self.settings.execution, "/processes/%d/log/last" % process_id
                          + _query(messageId=message_id, category=category))
        except ProblemError as e:
            if e.code == 414:
                return None
            raise
        return None if n is None else LogEntry.of(n)

    # ---- properties and workflows (registry-service) ----

    def properties(self, process_id: int, config_group: Optional[str] = None) -> List[Property]:
        """The process's properties, of one config group when ``config_group`` is not None."""
        answer = self._get(self.settings.registry, "/processes/%d/properties" % process_id
                           + _query(configGroup=config_group))
        return [Property.of(p) for p in answer or []]

    def property(self, process_id: int, key: str) -> Optional[Property]:
        """One property by key, or None when the process has none by that key (404)."""
        try:
            n = self._get(self.settings.registry, "/processes/%d/properties/%s" % (process_id, _segment(key)))
        except ProblemError as e:
            if e.status == 404:
                return None
            raise
        return None if n is None else Property.of(n)

    def workflow(self, process_id: int, format: str = "oozie") -> str:
        """The parent's generated workflow in ``format`` (``oozie`` XML, ``airflow`` Python, ``dot``, ``svg``)."""
        answer = self._send("GET", self.settings.registry, "/processes/%d/workflow" % process_id
                            + _query(format=format), None, accept="*/*")
        return answer or ""

    # ---- views for operators: the services' answers as they came (execution-service) ----

    def runs(self, process_id: Optional[int] = None, state: Optional[str] = None, limit: int = 50,
             offset: int = 0) -> Any:
        """``GET /runs``: runs, newest first, of ``process_id`` and in ``state`` (a name or number) when given."""
        return self._get(self.settings.execution, "/runs" + _query(processId=process_id, state=state, limit=limit,
                                                                   offset=offset))

    def why(self, process_id: int, bucket: Optional[str] = None) -> Any:
        """``GET /why/{pid}``: why a stand-alone job (or one bucket of it, when given) is not running."""
        return self._get(self.settings.execution, "/why/%d" % process_id + _query(bucket=bucket))

    # ---- lineage (lineage-service), as its JSON answers ----

    def batch_lineage(self, batch_id: int) -> Any:
        """The lineage of one batch: its producing run, the source batches it consumed, its consumers."""
        return self._get(self.settings.lineage, "/lineage/batches/%d" % batch_id)

    def process_lineage(self, process_id: int, runs: int = 20) -> Any:
        """A process's last ``runs`` runs and the processes it takes batches from and hands batches to."""
        return self._get(self.settings.lineage, "/lineage/processes/%d" % process_id + _query(runs=runs))

    def table_lineage(self, table: str, direction: str = "both", depth: int = 1) -> Any:
        """The tables ``table`` is written from and written to (``direction`` ``upstream``, ``downstream`` or
        ``both``), ``depth`` hops out."""
        return self._get(self.settings.lineage, "/lineage/tables/%s" % _segment(table)
                         + _query(direction=direction, depth=depth))

    def table_impact(self, table: str) -> Any:
        """What a change of ``table`` reaches downstream: the tables and processes that depend on it."""
        return self._get(self.settings.lineage, "/lineage/tables/%s/impact" % _segment(table))

    def column_lineage(self, table: str, column: str, direction: str = "both", depth: int = 3) -> Any:
        """The columns ``table.column`` is derived from and flows into, ``depth`` hops out."""
        return self._get(self.settings.lineage, "/lineage/columns" + _query(table=table, column=column,
                                                                            direction=direction, depth=depth))

    def register_query(self, query_type: str, query_text: str, process_id: int,
                       instance_exec_id: Optional[int] = None, default_database: Optional[str] = None,
                       variables: Optional[Mapping[str, str]] = None, query_id: Optional[str] = None) -> Any:
        """Registers a query (``HIVE``, ``SQL`` or ``PIG``) a run executed; lineage-service parses it at once and
        answers it with its parse status. ``query_id`` (a UUID) makes a retried registration idempotent."""
        body = {"queryId": query_id, "queryType": query_type, "queryText": query_text, "processId": process_id,
                "instanceExecId": instance_exec_id, "defaultDatabase": default_database,
                "variables": dict(variables) if variables is not None else None}
        return self._post(self.settings.lineage, "/queries", {k: v for k, v in body.items() if v is not None})

    def queries(self, process_id: Optional[int] = None, instance_exec_id: Optional[int] = None,
                status: Optional[str] = None, limit: int = 50, offset: int = 0) -> Any:
        """Registered queries (a page), of a process and/or run and in a parse status when given."""
        return self._get(self.settings.lineage, "/queries" + _query(
            processId=process_id, instanceExecId=instance_exec_id, status=status, limit=limit, offset=offset))

    def query(self, query_id: str) -> Any:
        """One registered query with its parse status."""
        return self._get(self.settings.lineage, "/queries/%s" % _segment(query_id))

    # ---- transport ----

    def _post(self, base: str, path: str, body: Optional[Mapping[str, Any]]) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        text = self._send("POST", base, path, data)
        if text is None:
            raise ProblemError(0, None, None, "empty answer to POST " + path)
        return _parse(text)

    def _get(self, base: str, path: str) -> Any:
        text = self._send("GET", base, path, None)
        return None if text is None else _parse(text)

    def _send(self, method: str, base: str, path: str, body: Optional[bytes], accept: str = _ACCEPT) -> Optional[str]:
        """Sends with the token, repeating 503s and refused connections by the rule and a 401 once with a fresh
        token; answers the body of a 2xx (None when it had none)."""
        rule = self.settings.retry
        tokens = self.settings.tokens
        url = base.rstrip("/") + path
        renewed = False
        attempt = 1
        while True:
            headers = {"Accept": accept, "Authorization": "Bearer " + tokens.token()}
            if body is not None:
                headers["Content-Type"] = "application/json"
            try:
                response: Response = self._transport(method, url, headers, body)
            except ConnectFailure as e:
                wait = rule.delay_after_connect_failure(attempt)
                if wait is None:
                    raise ProblemError(503, None, "unreachable", "%s: %s" % (url, e)) from e
                self._sleep(wait)
                attempt += 1
                continue
            status = response.status
            if status == 401 and not renewed:
                tokens.invalidate()
                renewed = True  # a fresh token is not a retry of an unavailable service: the attempt is not counted
                continue
            if 200 <= status < 300:
                return response.body if response.body and response.body.strip() else None
            wait = rule.delay_after(attempt, status, response.header("Retry-After"), datetime.now(timezone.utc))
            if wait is None:
                raise problem_of(status, response.body)
            self._sleep(wait)
            attempt += 1


#: The longest TermJob text execution-service keeps, in UTF-16 units (its FailureReason.MAX_TEXT).
MAX_FAILURE_TEXT = 2000


def fit_text(text: Optional[str], limit: int = MAX_FAILURE_TEXT) -> Optional[str]:
    """``text`` cut to at most ``limit`` UTF-16 units (what the service counts), never inside a character."""
    if text is None or len(text.encode("utf-16-le")) // 2 <= limit:
        return text
    cut = text[:limit]
    while len(cut.encode("utf-16-le")) // 2 > limit - 1:
        cut = cut[:-1]
    return cut + "…"


def _query(**pairs: Any) -> str:
    """The query string of the pairs whose value is not None, in the given order."""
    given = [(k, str(v)) for k, v in pairs.items() if v is not None]
    return "" if not given else "?" + urllib.parse.urlencode(given)


def _segment(value: str) -> str:
    """A path segment: everything but unreserved characters encoded (a space as %20, a slash as %2F)."""
    return urllib.parse.quote(str(value), safe="")


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as e:
        raise ValueError("unexpected answer: " + text[:300]) from e

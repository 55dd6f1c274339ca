"""The client's call loop (retries, 401 renewal, refusals) and the lifecycle blocks, against a scripted transport."""

from __future__ import annotations

import json
import os
import sys
import unittest
from typing import Dict, List, Optional, Tuple, Union

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from batchyard import Client, ClientSettings, ProblemError, RetryRule, TokenSource, fit_text  # noqa: E402
from batchyard.transport import ConnectFailure, Response  # noqa: E402

Answer = Union[Response, Exception]


class Transport:
    """Answers each call with the next scripted answer; records method, URL, headers and body of each."""

    def __init__(self, *answers: Answer) -> None:
        self.answers = list(answers)
        self.calls: List[Tuple[str, str, Dict[str, str], Optional[dict]]] = []

    def __call__(self, method: str, url: str, headers: Dict[str, str], body: Optional[bytes]) -> Response:
        self.calls.append((method, url, headers, None if body is None else json.loads(body)))
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


class CountingTokens(TokenSource):
    def __init__(self) -> None:
        self.issued = 0

    def token(self) -> str:
        return "t%d" % self.issued

    def invalidate(self) -> None:
        self.issued += 1


def ok(body: object) -> Response:
    return Response(200, json.dumps(body), {"content-type": "application/json"})


def problem(status: int, code: int, title: str, detail: str = "") -> Response:
    return Response(status, json.dumps({"status": status, "code": code, "title": title, "detail": detail}),
                    {"content-type": "application/problem+json"})


JOB_START = {"instanceExecId": 7, "targetBatchId": 70, "lastRecoverableSpId": None, "retry": False,
             "outputs": {"instance-exec-id": "7", "min-batch-id-map.13": "3", "max-batch-id-map.13": "5"}}
JOB_HALTED = {"processId": 12, "instanceExecId": 7, "state": "SUCCESS", "targetBatchId": 70, "batchMarking": "m"}
JOB_FAILED = dict(JOB_HALTED, state="FAILED", batchMarking=None)


class ClientTest(unittest.TestCase):

    def client(self, transport: Transport, tokens: Optional[TokenSource] = None,
               retry: RetryRule = RetryRule(3, 1.0, 30.0)) -> Tuple[Client, List[float]]:
        slept: List[float] = []
        settings = ClientSettings(tokens=tokens or CountingTokens(), execution="http://exec:8082/",
                                  queue="http://queue:8083", registry="http://reg:8081", lineage="http://lin:8084",
                                  retry=retry)
        return Client(settings, transport=transport, sleep=slept.append), slept

    def test_a_503_is_repeated_after_retry_after_until_it_is_answered(self) -> None:
        transport = Transport(Response(503, "", {"retry-after": "2"}), Response(503, ""), ok(JOB_START))
        client, slept = self.client(transport)
        start = client.init_job(12, 1)
        self.assertEqual((7, 70, {"instance-exec-id": "7", "min-batch-id-map.13": "3", "max-batch-id-map.13": "5"}),
                         (start.instance_exec_id, start.target_batch_id, start.outputs))
        self.assertEqual((3, 5), start.batch_range(13))
        self.assertEqual([2.0, 1.0], slept)
        self.assertEqual([("POST", "http://exec:8082/jobs/12/init", {"maxBatch": 1})] * 3,
                         [(m, u, b) for m, u, _, b in transport.calls])

    def test_503s_beyond_the_attempts_end_in_the_problem(self) -> None:
        transport = Transport(*[problem(503, 1, "Service unavailable")] * 3)
        client, slept = self.client(transport)
        with self.assertRaises(ProblemError) as refused:
            client.halt_job(12)
        self.assertEqual((503, 1), (refused.exception.status, refused.exception.code))
        self.assertTrue(refused.exception.unavailable)
        self.assertEqual(2, len(slept))

    def test_a_refusal_is_not_repeated_and_carries_the_code(self) -> None:
        transport = Transport(problem(409, 108, "The parent process is not running", "process 12"))
        client, slept = self.client(transport)
        with self.assertRaises(ProblemError) as refused:
            client.init_step(13)
        e = refused.exception
        self.assertEqual((409, 108, "The parent process is not running", "process 12"),
                         (e.status, e.code, e.title, e.detail))
        self.assertEqual([], slept)
        self.assertEqual(1, len(transport.calls))

    def test_a_401_is_repeated_once_with_a_fresh_token_without_counting_as_an_attempt(self) -> None:
        transport = Transport(Response(401, ""), Response(503, ""), Response(503, ""), Response(401, ""))
        client, _ = self.client(transport)
        with self.assertRaises(ProblemError) as refused:
            client.term_step(13)
        self.assertEqual(401, refused.exception.status)
        self.assertEqual(["Bearer t0", "Bearer t1", "Bearer t1", "Bearer t1"],
                         [h["Authorization"] for _, _, h, _ in transport.calls])

    def test_a_refused_connection_is_retried_then_reported_as_unreachable(self) -> None:
        transport = Transport(ConnectFailure("refused"), ConnectFailure("refused"), ConnectFailure("refused"))
        client, slept = self.client(transport)
        with self.assertRaises(ProblemError) as refused:
            client.runs(12)
        self.assertEqual((503, None, "unreachable"), (refused.exception.status, refused.exception.code,
                                                       refused.exception.title))
        self.assertEqual([1.0, 1.0], slept)

    def test_a_failure_in_flight_is_not_repeated(self) -> None:
        transport = Transport(OSError("connection reset"))
        client, _ = self.client(transport)
        with self.assertRaises(OSError):
            client.halt_job(12)
        self.assertEqual(1, len(transport.calls))

    def test_not_found_answers_of_look_ups_are_none(self) -> None:
        transport = Transport(problem(404, 414, "No value"), problem(404, 11, "Not found"))
        client, _ = self.client(transport)
        self.assertIsNone(client.last_process_log_value(12, "last-id", "import"))
        self.assertIsNone(client.property(12, "a key/with slash"))
        self.assertEqual("http://reg:8081/processes/12/properties/a%20key%2Fwith%20slash", transport.calls[1][1])

    def test_queries_leave_out_unset_parameters(self) -> None:
        transport = Transport(ok({"items": []}), ok({"nodes": []}))
        client, _ = self.client(transport)
        client.queries(process_id=12)
        client.column_lineage("sales.orders", "total", depth=2)
        self.assertEqual(["http://lin:8084/queries?processId=12&limit=50&offset=0",
                          "http://lin:8084/lineage/columns?table=sales.orders&column=total&direction=both&depth=2"],
                         [u for _, u, _, _ in transport.calls])

    def test_term_job_sends_no_body_without_a_reason_and_cuts_a_long_text(self) -> None:
        transport = Transport(ok(JOB_FAILED), ok(JOB_FAILED))
        client, _ = self.client(transport)
        client.term_job(12)
        client.term_job(12, 3, "x" * 5000)
        self.assertIsNone(transport.calls[0][3])
        sent = transport.calls[1][3]
        assert sent is not None
        self.assertEqual(3, sent["code"])
        self.assertEqual(2000, len(sent["text"]))

    def test_fit_text_counts_utf16_units_and_never_splits_a_character(self) -> None:
        self.assertEqual("abc", fit_text("abc", 3))
        cut = fit_text("a" + "\U0001F600" * 3, 4)
        assert cut is not None
        self.assertEqual("a\U0001F600…", cut)
        self.assertLessEqual(len(cut.encode("utf-16-le")) // 2, 4)


class LifecycleTest(unittest.TestCase):

    def client(self, *answers: Answer) -> Tuple[Client, Transport]:
        transport = Transport(*answers)
        settings = ClientSettings(tokens=CountingTokens(), execution="http://exec", queue="http://queue",
                                  retry=RetryRule(1, 0.0, 0.0))
        return Client(settings, transport=transport, sleep=lambda s: None), transport

    def calls(self, transport: Transport) -> List[Tuple[str, Optional[dict]]]:
        return [(u, b) for _, u, _, b in transport.calls]

    def test_a_block_that_completes_halts_its_step_and_its_job(self) -> None:
        client, transport = self.client(ok(JOB_START), ok({"subInstanceExecId": 8, "subProcessId": 13}),
                                        ok({"batchId": 70, "serverId": 1, "path": "/out/p0", "fileSize": 10,
                                            "fileHash": None, "creationTs": None}),
                                        ok({"subProcessIds": [13]}), ok(JOB_HALTED))
        with client.job(12, batch_marking="2024-09-01") as run:
            with run.step(13) as step:
                registered = step.register_file("/out/p0", 10, 1, batch_id=run.target_batch_id)
        self.assertEqual(70, registered.batch_id)
        self.assertEqual("SUCCESS", run.ended.state if run.ended else None)
        self.assertEqual([("http://exec/jobs/12/init", {}), ("http://exec/steps/13/init", None),
                          ("http://queue/files", {"subProcessId": 13, "serverId": 1, "path": "/out/p0",
                                                  "fileSize": 10, "batchId": 70}),
                          ("http://exec/steps/13/halt", None),
                          ("http://exec/jobs/12/halt", {"batchMarking": "2024-09-01"})], self.calls(transport))

    def test_a_block_that_raises_terms_step_and_job_with_the_exception_text_and_the_exception_goes_on(self) -> None:
        client, transport = self.client(ok(JOB_START), ok({"subInstanceExecId": 8, "subProcessId": 13}),
                                        ok({"subProcessIds": [13]}), ok(JOB_FAILED))
        with self.assertRaises(KeyError):
            with client.job(12, failure_code=9) as run:
                with run.step(13):
                    raise KeyError("column 'total'")
        self.assertEqual([("http://exec/jobs/12/init", {}), ("http://exec/steps/13/init", None),
                          ("http://exec/steps/13/term", None),
                          ("http://exec/jobs/12/term", {"code": 9, "text": "KeyError: \"column 'total'\""})],
                         self.calls(transport))
        self.assertEqual("FAILED", run.ended.state if run.ended else None)

    def test_a_failing_term_job_does_not_hide_the_jobs_own_error(self) -> None:
        client, _ = self.client(ok(JOB_START), problem(409, 105, "The process is not running"))
        with self.assertLogs("batchyard", "WARNING") as logged:
            with self.assertRaises(ZeroDivisionError):
                with client.job(12):
                    1 / 0
        self.assertIn("code 105", logged.output[0])

    def test_a_refused_init_job_enters_no_block(self) -> None:
        client, transport = self.client(problem(409, 104, "Parent Process is already running"))
        entered = []
        with self.assertRaises(ProblemError) as refused:
            with client.job(12):
                entered.append(True)
        self.assertEqual(104, refused.exception.code)
        self.assertEqual([], entered)
        self.assertEqual(1, len(transport.calls))


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""A job's lifecycle with Batchyard's Python client, as a data job would make it; prints one JSON line of what
happened (deploy/e2e's PythonClientEndToEndTest runs it against the packaged services).

    python3 job.py halt PARENT STEP [MARKING]   a run that completes: InitJob, InitStep, RegisterFile, a process log
                                                entry, HaltStep, HaltJob with the batch marking
    python3 job.py fail PARENT STEP TEXT        a run whose work raises RuntimeError(TEXT): TermStep, then TermJob
                                                with the exception's text; the exception goes on to this script
    python3 job.py refused STEP                 InitStep of a step whose parent is not running: Batchyard refuses it
                                                and the refusal's numeric code is an attribute of the ProblemError
    python3 job.py lineage PARENT               the parent's runs and neighbours as lineage-service knows them

Settings come from the environment (BATCHYARD_TOKEN, BATCHYARD_EXECUTION_URL, BATCHYARD_QUEUE_URL,
BATCHYARD_LINEAGE_URL, …; see client/python/README.md). Run from anywhere: the package is found beside this folder
unless it is already importable.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from batchyard import Client, ProblemError  # noqa: E402

#: Where the example's "output" lives; registered under the step, it is only a name (nothing is written).
SERVER_ID = 1


def halt(client: Client, parent: int, step: int, marking: str) -> Dict[str, Any]:
    with client.job(parent, max_batch=1, batch_marking=marking) as run:
        with run.step(step) as work:
            # … the step's real work (a Spark job, a pandas transformation) runs here …
            registered = work.register_file("/data/out/%d/part-0.parquet" % run.instance_exec_id, 1024, SERVER_ID,
                                            file_hash="0" * 64, creation_ts="2024-09-01T10:00:00Z")
            work.log("example", "rows", "1024")
    assert run.ended is not None
    return {"scenario": "halt", "instanceExecId": run.instance_exec_id, "targetBatchId": run.target_batch_id,
            "state": run.ended.state, "batchMarking": run.ended.batch_marking, "fileBatchId": registered.batch_id}


def fail(client: Client, parent: int, step: int, text: str) -> Dict[str, Any]:
    job = client.job(parent)
    try:
        with job as run:
            with run.step(step):
                raise RuntimeError(text)
    except RuntimeError as raised:  # the client made TermStep and TermJob, then let the job's own error through
        assert job.ended is not None
        return {"scenario": "fail", "raised": type(raised).__name__, "message": str(raised),
                "instanceExecId": job.instance_exec_id, "state": job.ended.state}
    raise AssertionError("the job's error did not reach the caller")


def refused(client: Client, step: int) -> Dict[str, Any]:
    try:
        client.init_step(step)
    except ProblemError as e:
        return dict(e.to_dict(), scenario="refused", error=type(e).__name__, message=str(e))
    raise AssertionError("InitStep of a step without a running parent was accepted")


def lineage(client: Client, parent: int) -> Dict[str, Any]:
    answer = client.process_lineage(parent, runs=5)
    return {"scenario": "lineage", "processId": answer.get("processId"),
            "runs": [{"instanceExecId": r.get("instanceExecId"), "state": r.get("state")}
                     for r in answer.get("runs") or []]}


def main(args: List[str]) -> int:
    if len(args) < 2 or args[0] not in ("halt", "fail", "refused", "lineage"):
        print(__doc__, file=sys.stderr)
        return 2
    client = Client()
    what = args[0]
    if what == "halt":
        out = halt(client, int(args[1]), int(args[2]), args[3] if len(args) > 3 else "2024-09-01")
    elif what == "fail":
        out = fail(client, int(args[1]), int(args[2]), args[3])
    elif what == "refused":
        out = refused(client, int(args[1]))
    else:
        out = lineage(client, int(args[1]))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Problem parsing: what a refusal carries into ProblemError."""

from __future__ import annotations

import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from batchyard.problems import MAX_QUOTED, ProblemError, problem_of  # noqa: E402


class ProblemsTest(unittest.TestCase):

    def test_a_problem_body_gives_status_code_title_and_detail(self) -> None:
        p = problem_of(409, json.dumps({"type": "about:blank", "status": 409, "code": 104,
                                        "title": "Parent Process is already running", "detail": "process 12"}))
        self.assertEqual((409, 104, "Parent Process is already running", "process 12"),
                         (p.status, p.code, p.title, p.detail))
        self.assertEqual("code 104 (HTTP 409) Parent Process is already running: process 12", str(p))
        self.assertFalse(p.unavailable)

    def test_field_errors_of_a_400_are_appended_to_the_detail(self) -> None:
        p = problem_of(400, json.dumps({"code": 11, "title": "Invalid request", "detail": "2 fields",
                                        "errors": [{"field": "fileSize", "message": "must be positive"},
                                                   {"field": "path", "message": "must not be blank"}]}))
        self.assertEqual("2 fields; fileSize: must be positive; path: must not be blank", p.detail)
        without_detail = problem_of(400, json.dumps({"errors": [{"field": "path", "message": "blank"}]}))
        self.assertEqual("path: blank", without_detail.detail)

    def test_a_code_is_only_a_whole_json_number(self) -> None:
        self.assertIsNone(problem_of(409, '{"code": "104"}').code)
        self.assertIsNone(problem_of(409, '{"code": 1.5}').code)
        self.assertIsNone(problem_of(409, '{"code": true}').code)
        self.assertIsNone(problem_of(409, '{"code": null, "title": "t"}').code)
        self.assertEqual(104, problem_of(409, '{"code": 104.0}').code)

    def test_a_body_that_is_not_a_problem_is_quoted_and_cut(self) -> None:
        page = "<html>" + "x" * 1000 + "</html>"
        p = problem_of(502, page)
        self.assertIsNone(p.code)
        self.assertIsNone(p.title)
        self.assertEqual(page[:MAX_QUOTED] + "…", p.detail)
        self.assertEqual("HTTP 502: " + p.detail, str(p))
        self.assertEqual("[1, 2]", problem_of(500, "[1, 2]").detail)

    def test_an_empty_answer_gives_the_status_alone(self) -> None:
        for body in (None, "", "  "):
            p = problem_of(503, body)
            self.assertEqual((503, None, None, None), (p.status, p.code, p.title, p.detail))
            self.assertTrue(p.unavailable)
            self.assertEqual("HTTP 503", str(p))

    def test_the_refusal_is_an_exception_with_plain_attributes(self) -> None:
        p = ProblemError(404, 412, "Not found", None)
        self.assertIsInstance(p, Exception)
        self.assertEqual({"status": 404, "code": 412, "title": "Not found", "detail": None}, p.to_dict())


if __name__ == "__main__":
    unittest.main()

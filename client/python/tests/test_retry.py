"""The retry decisions, as the Java client's RetryRuleTest states them."""

from __future__ import annotations

import os
import sys
import unittest
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from batchyard.retry import DEFAULT, NONE, RetryRule, parse_retry_after  # noqa: E402

NOW = datetime(2024, 5, 1, 10, 0, 0, tzinfo=timezone.utc)


class RetryRuleTest(unittest.TestCase):

    def test_a_503_without_retry_after_waits_the_default_delay(self) -> None:
        self.assertEqual(1.0, DEFAULT.delay_after(1, 503, None, NOW))

    def test_retry_after_in_seconds_is_obeyed_up_to_the_cap(self) -> None:
        self.assertEqual(7.0, DEFAULT.delay_after(1, 503, "7", NOW))
        self.assertEqual(30.0, DEFAULT.delay_after(1, 503, "3600", NOW))

    def test_retry_after_as_an_http_date_waits_until_then_and_a_past_date_not_at_all(self) -> None:
        self.assertEqual(12.0, DEFAULT.delay_after(1, 503, format_datetime(NOW + timedelta(seconds=12), usegmt=True),
                                                   NOW))
        self.assertEqual(0.0, DEFAULT.delay_after(1, 503, format_datetime(NOW - timedelta(seconds=5), usegmt=True),
                                                  NOW))

    def test_an_unreadable_retry_after_falls_back_to_the_default_delay(self) -> None:
        self.assertEqual(1.0, DEFAULT.delay_after(1, 503, "soon", NOW))
        self.assertEqual(1.0, DEFAULT.delay_after(1, 503, "-3", NOW))
        self.assertEqual(1.0, DEFAULT.delay_after(1, 503, "99999999999999999999", NOW))

    def test_only_503_is_retried(self) -> None:
        for status in (400, 401, 403, 404, 409, 422, 500, 502, 504):
            self.assertIsNone(DEFAULT.delay_after(1, status, "1", NOW), status)

    def test_the_last_attempt_stands(self) -> None:
        self.assertIsNotNone(DEFAULT.delay_after(4, 503, None, NOW))
        self.assertIsNone(DEFAULT.delay_after(5, 503, None, NOW))
        self.assertIsNone(NONE.delay_after(1, 503, None, NOW))

    def test_a_refused_connection_is_retried_with_the_default_delay_until_the_last_attempt(self) -> None:
        rule = RetryRule(3, 2.0, 1.5)
        self.assertEqual(1.5, rule.delay_after_connect_failure(1))
        self.assertEqual(1.5, rule.delay_after_connect_failure(2))
        self.assertIsNone(rule.delay_after_connect_failure(3))

    def test_a_rule_without_any_call_or_with_a_negative_delay_is_refused(self) -> None:
        with self.assertRaises(ValueError):
            RetryRule(0, 1.0, 1.0)
        with self.assertRaises(ValueError):
            RetryRule(1, -1.0, 1.0)

    def test_parse_retry_after_reads_both_forms(self) -> None:
        self.assertEqual(120.0, parse_retry_after(" 120 ", NOW))
        self.assertIsNone(parse_retry_after("", NOW))
        self.assertEqual(60.0, parse_retry_after("Wed, 01 May 2024 10:01:00 GMT", NOW))


if __name__ == "__main__":
    unittest.main()

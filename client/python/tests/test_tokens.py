"""Token sources: the client-credentials cache, the token file, a static token."""

from __future__ import annotations

import base64
import os
import sys
import tempfile
import unittest
import urllib.parse
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from batchyard.problems import ProblemError  # noqa: E402
from batchyard.tokens import MARGIN, ClientCredentials, StaticToken, TokenFile  # noqa: E402


class FakeEndpoint:
    """A token endpoint that hands out numbered tokens of a fixed lifetime and records each request."""

    def __init__(self, expires_in: object = 300, status: int = 200, body: str = "") -> None:
        self.expires_in = expires_in
        self.status = status
        self.body = body
        self.requests: List[Tuple[str, bytes, Dict[str, str]]] = []

    def __call__(self, url: str, form: bytes, headers: Dict[str, str]) -> Tuple[int, str]:
        self.requests.append((url, form, headers))
        if self.status != 200:
            return self.status, self.body
        return 200, '{"access_token": "t%d", "token_type": "Bearer", "expires_in": %s}' % (
            len(self.requests), self.expires_in)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class ClientCredentialsTest(unittest.TestCase):

    def source(self, endpoint: FakeEndpoint, clock: Clock, scope: object = None) -> ClientCredentials:
        return ClientCredentials("https://idp/token", "job client", "s3cr&t", scope,  # type: ignore[arg-type]
                                 clock=clock, post=endpoint)

    def test_the_token_is_kept_until_the_margin_before_it_expires(self) -> None:
        endpoint, clock = FakeEndpoint(expires_in=300), Clock()
        tokens = self.source(endpoint, clock)
        self.assertEqual("t1", tokens.token())
        clock.now += 300 - MARGIN - 1
        self.assertEqual("t1", tokens.token())
        self.assertEqual(1, len(endpoint.requests))
        clock.now += 1
        self.assertEqual("t2", tokens.token())

    def test_a_short_lived_token_is_renewed_half_way(self) -> None:
        endpoint, clock = FakeEndpoint(expires_in=40), Clock()
        tokens = self.source(endpoint, clock)
        self.assertEqual("t1", tokens.token())
        clock.now += 19
        self.assertEqual("t1", tokens.token())
        clock.now += 1
        self.assertEqual("t2", tokens.token())

    def test_without_expires_in_the_token_lives_a_minute(self) -> None:
        endpoint, clock = FakeEndpoint(expires_in="null"), Clock()
        tokens = self.source(endpoint, clock)
        tokens.token()
        clock.now += 29
        self.assertEqual("t1", tokens.token())
        clock.now += 1
        self.assertEqual("t2", tokens.token())

    def test_invalidate_fetches_a_fresh_token_on_the_next_call(self) -> None:
        endpoint, clock = FakeEndpoint(), Clock()
        tokens = self.source(endpoint, clock)
        tokens.token()
        tokens.invalidate()
        self.assertEqual("t2", tokens.token())

    def test_the_grant_sends_id_and_secret_as_http_basic_and_the_scope_in_the_form(self) -> None:
        endpoint = FakeEndpoint()
        self.source(endpoint, Clock(), scope="batchyard jobs").token()
        url, form, headers = endpoint.requests[0]
        self.assertEqual("https://idp/token", url)
        self.assertEqual({"grant_type": ["client_credentials"], "scope": ["batchyard jobs"]},
                         urllib.parse.parse_qs(form.decode("ascii")))
        self.assertEqual("application/x-www-form-urlencoded", headers["Content-Type"])
        basic = base64.b64decode(headers["Authorization"][len("Basic "):]).decode("utf-8")
        self.assertEqual("job+client:s3cr%26t", basic)

    def test_a_refusal_names_the_oauth_error_and_never_the_secret(self) -> None:
        endpoint = FakeEndpoint(status=401, body='{"error": "invalid_client", "error_description": "bad secret"}')
        with self.assertRaises(ProblemError) as refused:
            self.source(endpoint, Clock()).token()
        self.assertEqual(401, refused.exception.status)
        self.assertIsNone(refused.exception.code)
        self.assertEqual("invalid_client: bad secret", refused.exception.detail)
        self.assertNotIn("s3cr", str(refused.exception))

    def test_an_answer_without_an_access_token_is_an_error(self) -> None:
        class NoToken(FakeEndpoint):
            def __call__(self, url: str, form: bytes, headers: Dict[str, str]) -> Tuple[int, str]:
                return 200, '{"token_type": "Bearer"}'
        with self.assertRaises(ValueError):
            self.source(NoToken(), Clock()).token()

    def test_a_client_id_is_required(self) -> None:
        with self.assertRaises(ValueError):
            ClientCredentials("https://idp/token", " ", "secret")


class TokenFileTest(unittest.TestCase):

    def test_the_first_non_blank_line_is_read_on_every_call_without_a_bearer_prefix(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "token")
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n  Bearer abc  \nignored\n")
            tokens = TokenFile(path)
            self.assertEqual("abc", tokens.token())
            with open(path, "w", encoding="utf-8") as f:
                f.write("def\n")
            self.assertEqual("def", tokens.token())

    def test_an_empty_or_missing_file_is_an_error(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "token")
            with self.assertRaises(OSError):
                TokenFile(path).token()
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n \n")
            with self.assertRaises(ValueError):
                TokenFile(path).token()


class StaticTokenTest(unittest.TestCase):

    def test_a_static_token_is_trimmed_and_must_not_be_empty(self) -> None:
        self.assertEqual("abc", StaticToken(" abc\n").token())
        with self.assertRaises(ValueError):
            StaticToken("  ")


if __name__ == "__main__":
    unittest.main()

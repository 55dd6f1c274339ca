"""Settings: names, order of sources and token choice, as the Java client's ClientSettings."""

from __future__ import annotations

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from batchyard.settings import ClientSettings, environment_name, parse_properties  # noqa: E402
from batchyard.tokens import ClientCredentials, StaticToken, TokenFile  # noqa: E402


class SettingsTest(unittest.TestCase):

    def test_the_environment_name_of_a_setting(self) -> None:
        self.assertEqual("BATCHYARD_EXECUTION_URL", environment_name("batchyard.execution.url"))
        self.assertEqual("BATCHYARD_RETRY_MAX_DELAY_SECONDS", environment_name("batchyard.retry.max-delay-seconds"))

    def test_the_environment_wins_over_the_file_and_defaults_fill_the_rest(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            config = os.path.join(d, "c.properties")
            with open(config, "w", encoding="latin-1") as f:
                f.write("# job settings\nbatchyard.execution.url = http://file:1\nbatchyard.queue.url=http://file:2\n"
                        "batchyard.token=from-file\nbatchyard.retry.max-attempts: 2\n")
            s = ClientSettings.from_environment({"BATCHYARD_CLIENT_CONFIG": config,
                                                 "BATCHYARD_EXECUTION_URL": "http://env:1",
                                                 "BATCHYARD_QUEUE_URL": "  ",
                                                 "BATCHYARD_RETRY_MAX_DELAY_SECONDS": "4"})
        self.assertEqual("http://env:1", s.execution)
        self.assertEqual("http://file:2", s.queue)
        self.assertEqual("http://localhost:8081", s.registry)
        self.assertEqual("http://localhost:8084", s.lineage)
        self.assertEqual("from-file", s.tokens.token())
        self.assertEqual((2, 1.0, 4.0), (s.retry.max_attempts, s.retry.default_delay, s.retry.max_delay))

    def test_a_static_token_wins_over_a_token_file_which_wins_over_client_credentials(self) -> None:
        oidc = {"BATCHYARD_OIDC_TOKEN_URL": "https://idp/token", "BATCHYARD_OIDC_CLIENT_ID": "job",
                "BATCHYARD_OIDC_CLIENT_SECRET": "s", "BATCHYARD_CLIENT_CONFIG": "/nonexistent"}
        self.assertIsInstance(ClientSettings.from_environment(oidc).tokens, ClientCredentials)
        with_file = dict(oidc, BATCHYARD_TOKEN_FILE="/run/token")
        self.assertIsInstance(ClientSettings.from_environment(with_file).tokens, TokenFile)
        with_token = dict(with_file, BATCHYARD_TOKEN="t")
        self.assertIsInstance(ClientSettings.from_environment(with_token).tokens, StaticToken)

    def test_no_token_at_all_is_refused_with_the_settings_to_use(self) -> None:
        with self.assertRaises(ValueError) as refused:
            ClientSettings.from_environment({"BATCHYARD_CLIENT_CONFIG": "/nonexistent"})
        self.assertIn("BATCHYARD_TOKEN", str(refused.exception))

    def test_properties_files_are_read_as_java_reads_them(self) -> None:
        self.assertEqual({"a": "1", "b": "two words", "continued": "line", "key with space": "vA", "empty": "",
                          "x": "y"},
                         parse_properties("a=1\n# comment\n! comment\n  b : two words\ncontinued = li\\\n   ne\n"
                                          "key\\ with\\ space=v\\u0041\nempty\nx y\n"))


if __name__ == "__main__":
    unittest.main()

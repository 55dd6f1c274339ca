"""Where the services are, how to get a token and how often to retry: the Java client's settings, same names."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable, Dict, Mapping, Optional, Tuple

from . import retry as _retry
from .retry import RetryRule
from .tokens import ClientCredentials, StaticToken, TokenFile, TokenSource

#: The file read from the working directory when no other source names a setting.
CONFIG_FILE = "batchyard-client.properties"

#: A look-up of a setting by its name (``batchyard.execution.url``); None when unset.
Lookup = Callable[[str], Optional[str]]


@dataclass(frozen=True)
class ClientSettings:
    """The services' base URLs, the token source and the retry rule.

    :param execution: execution-service (lifecycle, process log, runs)
    :param queue: queue-service (RegisterFile, the consumption queue)
    :param registry: registry-service (properties, workflows)
    :param lineage: lineage-service (lineage of batches, processes, tables and columns; registered queries)
    :param tokens: where each call's bearer token comes from
    :param retry: how often and how long a 503 or a refused connection is retried
    """

    tokens: TokenSource
    execution: str = "http://localhost:8082"
    queue: str = "http://localhost:8083"
    registry: str = "http://localhost:8081"
    lineage: str = "http://localhost:8084"
    retry: RetryRule = field(default=_retry.DEFAULT)

    @staticmethod
    def from_environment(environ: Optional[Mapping[str, str]] = None) -> "ClientSettings":
        """Each setting from the environment variable (``BATCHYARD_EXECUTION_URL``), else the properties file named
        by ``BATCHYARD_CLIENT_CONFIG``, else ``batchyard-client.properties`` in the working directory if present (the
        Java client's order; Python has no system properties)."""
        return ClientSettings.from_lookup(environment(environ))

    @staticmethod
    def from_lookup(setting: Lookup) -> "ClientSettings":
        """Settings from a look-up by property name (None when unset); see the README's table of names."""
        rule = RetryRule(
            int(setting("batchyard.retry.max-attempts") or _retry.DEFAULT.max_attempts),
            _retry.DEFAULT.default_delay,
            float(int(setting("batchyard.retry.max-delay-seconds") or int(_retry.DEFAULT.max_delay))))
        return ClientSettings(
            tokens=tokens(setting),
            execution=setting("batchyard.execution.url") or "http://localhost:8082",
            queue=setting("batchyard.queue.url") or "http://localhost:8083",
            registry=setting("batchyard.registry.url") or "http://localhost:8081",
            lineage=setting("batchyard.lineage.url") or "http://localhost:8084",
            retry=rule)


def environment(environ: Optional[Mapping[str, str]] = None) -> Lookup:
    """The look-up :meth:`ClientSettings.from_environment` reads settings with (None when unset or blank)."""
    env = os.environ if environ is None else environ
    file = properties_file(env.get("BATCHYARD_CLIENT_CONFIG") or CONFIG_FILE)

    def look_up(name: str) -> Optional[str]:
        v = env.get(environment_name(name))
        if v is None or not v.strip():
            v = file.get(name)
        return None if v is None or not v.strip() else v.strip()

    return look_up


def tokens(setting: Lookup) -> TokenSource:
    """A static token wins over a token file, which wins over client credentials."""
    token = setting("batchyard.token")
    if token is not None:
        return StaticToken(token)
    path = setting("batchyard.token.file")
    if path is not None:
        return TokenFile(path)
    endpoint = setting("batchyard.oidc.token-url")
    if endpoint is not None:
        return ClientCredentials(endpoint, setting("batchyard.oidc.client-id") or "",
                                 setting("batchyard.oidc.client-secret"),  # type: ignore[arg-type]
                                 setting("batchyard.oidc.scope"))
    raise ValueError("no Batchyard token configured: set BATCHYARD_TOKEN, BATCHYARD_TOKEN_FILE or"
                     " BATCHYARD_OIDC_TOKEN_URL with BATCHYARD_OIDC_CLIENT_ID and BATCHYARD_OIDC_CLIENT_SECRET")


def environment_name(setting: str) -> str:
    """The environment variable of a setting: ``batchyard.execution.url`` → ``BATCHYARD_EXECUTION_URL``."""
    return setting.upper().replace(".", "_").replace("-", "_")


def properties_file(path: str) -> Dict[str, str]:
    """The settings in a Java properties file (``key=value``, ``key: value`` or ``key value``; ``#``/``!`` comments;
    a trailing backslash continues the line; ``\\t``, ``\\n``, ``\\uXXXX`` escapes); none when there is no such
    file."""
    if not os.path.isfile(path):
        return {}
    with open(path, encoding="latin-1") as f:
        return parse_properties(f.read())


def parse_properties(text: str) -> Dict[str, str]:
    """The entries of a Java properties text, as ``java.util.Properties.load`` reads them (latin-1 input)."""
    out: Dict[str, str] = {}
    logical = ""
    for raw in text.splitlines():
        line = raw.lstrip(" \t\f")
        if not logical and (not line or line[0] in "#!"):
            continue
        if _continues(line):
            logical += line[:-1]
            continue
        logical += line
        key, value = _split(logical)
        out[key] = value
        logical = ""
    if logical:
        key, value = _split(logical)
        out[key] = value
    return out


def _continues(line: str) -> bool:
    """An odd number of trailing backslashes continues the line."""
    n = len(line) - len(line.rstrip("\\"))
    return n % 2 == 1


def _split(line: str) -> Tuple[str, str]:
    """Key and value: the key ends at the first unescaped ``=``, ``:`` or blank; one separator and the blanks around it
    go."""
    i = 0
    while i < len(line) and line[i] not in "=: \t\f":
        i += 2 if line[i] == "\\" else 1
    i = min(i, len(line))
    j = i
    while j < len(line) and line[j] in " \t\f":
        j += 1
    if j < len(line) and line[j] in "=:":
        j += 1
    while j < len(line) and line[j] in " \t\f":
        j += 1
    return _unescape(line[:i]), _unescape(line[j:])


def _unescape(s: str) -> str:
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            if n == "u" and i + 6 <= len(s):
                try:
                    out.append(chr(int(s[i + 2:i + 6], 16)))
                    i += 6
                    continue
                except ValueError:
                    pass
            out.append({"t": "\t", "n": "\n", "r": "\r", "f": "\f"}.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)

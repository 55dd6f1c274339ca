"""One HTTP exchange over ``urllib``; the client's retry loop sits above it so tests can replace it."""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Callable, Dict, Optional

#: Seconds one call may take (connect, send, answer), as the Java client's call timeout.
CALL_TIMEOUT = 60.0


@dataclass(frozen=True)
class Response:
    """An HTTP answer: status, headers (names in lower case) and the body as text."""

    status: int
    body: str = ""
    headers: Dict[str, str] = field(default_factory=dict)

    def header(self, name: str) -> Optional[str]:
        return self.headers.get(name.lower())


class ConnectFailure(OSError):
    """The call never reached the service (connection refused or the connect timed out): safe to repeat."""


#: Sends ``method url`` with headers and an optional body; answers the :class:`Response` of any status, raises
#: :class:`ConnectFailure` when the service was not reached and ``OSError`` for a failure in flight.
Transport = Callable[[str, str, Dict[str, str], Optional[bytes]], Response]


def urllib_transport(method: str, url: str, headers: Dict[str, str], body: Optional[bytes]) -> Response:
    """The standard library's HTTP client (proxies from the environment, as ``urllib`` does)."""
    request = urllib.request.Request(url, data=body, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=CALL_TIMEOUT) as answer:
            return Response(answer.status, answer.read().decode("utf-8", "replace"), _headers(answer.headers))
    except urllib.error.HTTPError as refused:
        text = refused.read().decode("utf-8", "replace") if refused.fp is not None else ""
        return Response(refused.code, text, _headers(refused.headers))
    except urllib.error.URLError as e:
        # urllib wraps what fails before the request is sent (connecting) in URLError; what fails later is raised
        # as it is. Only a refused or timed-out connect is known to have changed nothing.
        if isinstance(e.reason, (ConnectionRefusedError, socket.timeout, TimeoutError)):
            raise ConnectFailure("%s %s: %s" % (method, url, e.reason)) from e
        raise OSError("%s %s failed: %s" % (method, url, e.reason)) from e


def _headers(headers) -> Dict[str, str]:  # type: ignore[no-untyped-def]
    return {k.lower(): v for k, v in headers.items()} if headers is not None else {}

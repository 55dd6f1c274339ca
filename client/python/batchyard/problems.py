"""Batchyard's refusals as exceptions: problem+json when the answer is one, the bare status otherwise."""

from __future__ import annotations

import json
from typing import Any, Optional

#: A non-JSON body is quoted in the detail up to this length, so an HTML error page does not flood the logs.
MAX_QUOTED = 300


class ProblemError(Exception):
    """A call Batchyard refused or could not answer.

    ``status`` is the HTTP status (0 when there was no HTTP answer), ``code`` Batchyard's numeric code from the
    problem+json body (e.g. 104 "Parent Process is already running"; None only when the answer carried no problem
    body, such as a proxy's page), ``title`` and ``detail`` the body's texts.
    """

    def __init__(self, status: int, code: Optional[int], title: Optional[str], detail: Optional[str]) -> None:
        super().__init__(_message(status, code, title, detail))
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail

    @property
    def unavailable(self) -> bool:
        """True for the 503 Batchyard answers while a dependency (database, broker, another service) is away."""
        return self.status == 503

    def to_dict(self) -> dict:
        """The refusal as plain values (``status``, ``code``, ``title``, ``detail``), e.g. to print as JSON."""
        return {"status": self.status, "code": self.code, "title": self.title, "detail": self.detail}


def _message(status: int, code: Optional[int], title: Optional[str], detail: Optional[str]) -> str:
    m = "HTTP %d" % status if code is None else "code %d (HTTP %d)" % (code, status)
    if title and title.strip():
        m += " " + title
    if detail and detail.strip():
        m += ": " + detail
    return m


def problem_of(status: int, body: Optional[str]) -> ProblemError:
    """The :class:`ProblemError` of an error answer with ``status`` and ``body`` (None or empty when it had none)."""
    if body is not None and body.strip():
        try:
            n = json.loads(body)
        except ValueError:
            n = None  # not JSON: the body is quoted as it came
        if isinstance(n, dict):
            return ProblemError(status, _code(n.get("code")), _text(n, "title"), _detail(n))
    quoted = None
    if body is not None and body.strip():
        quoted = body[:MAX_QUOTED] + "…" if len(body) > MAX_QUOTED else body
    return ProblemError(status, None, None, quoted)


def _code(value: Any) -> Optional[int]:
    """Only a JSON number that is a whole 32-bit value is a code (a numeric string is not, as in the Java client)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    v = int(value)
    return v if -2 ** 31 <= v < 2 ** 31 else None


def _detail(n: dict) -> Optional[str]:
    """The detail, with the per-field messages of a 400 appended so a caller sees which field was wrong."""
    detail = _text(n, "detail")
    errors = n.get("errors")
    if not isinstance(errors, list) or not errors:
        return detail
    d = detail or ""
    for e in errors:
        e = e if isinstance(e, dict) else {}
        d += ("; " if d else "") + "%s: %s" % (_shown(_text(e, "field")), _shown(_text(e, "message")))
    return d


def _shown(text: Optional[str]) -> str:
    return "null" if text is None else text


def _text(n: dict, field: str) -> Optional[str]:
    v = n.get(field)
    if v is None:
        return None
    if isinstance(v, str):
        return v
    return json.dumps(v) if isinstance(v, (dict, list, bool)) else str(v)

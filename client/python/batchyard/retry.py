"""When to call again: the same rule as the Java client's ``RetryRule``."""

from __future__ import annotations

import email.utils
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Optional


@dataclass(frozen=True)
class RetryRule:
    """When to call again.

    Batchyard answers 503 with ``Retry-After`` while the database, the broker or another service is away and nothing
    was changed, so the same call may simply be repeated after that delay. The delay is capped and the number of
    calls bounded: a job must fail visibly rather than hang its workflow for hours.

    :param max_attempts: calls in all, the first included
    :param default_delay: seconds to wait when the answer gives no usable ``Retry-After`` (or the connection was
        refused)
    :param max_delay: the longest single wait in seconds, whatever ``Retry-After`` says
    """

    max_attempts: int = 5
    default_delay: float = 1.0
    max_delay: float = 30.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1, got %d" % self.max_attempts)
        if self.default_delay < 0 or self.max_delay < 0:
            raise ValueError("delays must not be negative")

    def delay_after(self, attempt: int, status: int, retry_after: Optional[str],
                    now: Optional[datetime] = None) -> Optional[float]:
        """The wait in seconds before call ``attempt + 1`` after call ``attempt`` (1-based) was answered ``status``
        with the ``Retry-After`` header ``retry_after`` (None when absent), or None when the answer stands."""
        if status != 503 or attempt >= self.max_attempts:
            return None
        parsed = parse_retry_after(retry_after, now or datetime.now(timezone.utc))
        return self._cap(self.default_delay if parsed is None else parsed)

    def delay_after_connect_failure(self, attempt: int) -> Optional[float]:
        """The wait after a call that never reached the service (connection refused), or None after the last."""
        return None if attempt >= self.max_attempts else self._cap(self.default_delay)

    def _cap(self, seconds: float) -> float:
        return min(seconds, self.max_delay)


#: Five calls, 1 s without a header, at most 30 s per wait.
DEFAULT = RetryRule()
#: One call, never again.
NONE = RetryRule(1, 0.0, 0.0)


def parse_retry_after(value: Optional[str], now: datetime) -> Optional[float]:
    """``Retry-After`` in seconds: either delay-seconds or an HTTP-date (a past date is no wait); anything else is
    None."""
    if value is None or not value.strip():
        return None
    v = value.strip()
    if v.isascii() and v.isdigit():
        # beyond a Java long the Java client ignores the header; so does this one
        return float(int(v)) if int(v) < 2 ** 63 else None
    try:
        at = email.utils.parsedate_to_datetime(v)
    except (TypeError, ValueError, IndexError):
        return None
    if at is None:
        return None
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    return max(0.0, (at - now).total_seconds())

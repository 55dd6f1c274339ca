"""Where the bearer token of each call comes from: a static token, a token file, or OAuth 2 client credentials.

The services accept any token of the OpenID Connect issuer they trust that carries the call's role (``operator`` for
lifecycle calls, files and log writes, ``viewer`` for reads).
"""

from __future__ import annotations

import base64
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Callable, Optional, Tuple

from .problems import ProblemError

#: Seconds before expiry at which a client-credentials token is renewed, so a long job never sends a token that
#: lapses in flight.
MARGIN = 30.0


class TokenSource:
    """The source of the token every call sends (without the "Bearer " prefix)."""

    def token(self) -> str:
        """The token to send now."""
        raise NotImplementedError

    def invalidate(self) -> None:
        """The service answered 401 with the last token: forget any cached one so the next :meth:`token` is fresh."""


class StaticToken(TokenSource):
    """The same token for every call (tests, short jobs handed a token by their scheduler)."""

    def __init__(self, token: str) -> None:
        if token is None or not token.strip():
            raise ValueError("the static token is empty")
        self._token = token.strip()

    def token(self) -> str:
        return self._token


class TokenFile(TokenSource):
    """A token kept in a file (first non-blank line; a leading "Bearer " is dropped), read again on every call, so
    whoever renews the token only rewrites the file."""

    def __init__(self, path: str) -> None:
        self.path = path

    def token(self) -> str:
        try:
            with open(self.path, encoding="utf-8") as f:
                for line in f:
                    t = line.strip()
                    if t:
                        return t[7:].strip() if t[:7].lower() == "bearer " else t
        except OSError as e:
            raise OSError("cannot read the token file %s: %s" % (self.path, e)) from e
        raise ValueError("the token file %s is empty" % self.path)


#: Posts a form to a URL with headers; answers (status, body). Tests replace it.
FormPoster = Callable[[str, bytes, dict], Tuple[int, str]]


def _post_form(url: str, form: bytes, headers: dict) -> Tuple[int, str]:
    request = urllib.request.Request(url, data=form, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as e:
        raise OSError("token endpoint %s unreachable: %s" % (url, e)) from e


class ClientCredentials(TokenSource):
    """OAuth 2 client credentials.

    POSTs ``grant_type=client_credentials`` with the client's id and secret (HTTP Basic, which every OpenID Connect
    provider accepts) and keeps the access token until :data:`MARGIN` seconds before it expires; a token shorter-lived
    than twice the margin is renewed half-way instead. Thread-safe.
    """

    def __init__(self, endpoint: str, client_id: str, client_secret: str, scope: Optional[str] = None, *,
                 clock: Callable[[], float] = time.monotonic, post: FormPoster = _post_form) -> None:
        if not client_id or not client_id.strip() or client_secret is None:
            raise ValueError("client credentials need a client id and a secret")
        self.endpoint = endpoint
        self._client_id = client_id
        self._client_secret = client_secret
        self._scope = scope
        self._clock = clock
        self._post = post
        self._lock = threading.Lock()
        self._token: Optional[str] = None
        self._renew_at = 0.0

    def token(self) -> str:
        with self._lock:
            now = self._clock()
            if self._token is None or now >= self._renew_at:
                self._fetch(now)
            assert self._token is not None
            return self._token

    def invalidate(self) -> None:
        with self._lock:
            self._token = None

    def _fetch(self, now: float) -> None:
        form = "grant_type=client_credentials"
        if self._scope and self._scope.strip():
            form += "&scope=" + _enc(self._scope)
        basic = base64.b64encode((_enc(self._client_id) + ":" + _enc(self._client_secret)).encode("utf-8"))
        status, body = self._post(self.endpoint, form.encode("ascii"), {
            "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json",
            "Authorization": "Basic " + basic.decode("ascii")})
        if status != 200:
            raise ProblemError(status, None, "token endpoint refused the client credentials", _oauth_error(body))
        try:
            n = json.loads(body)
        except ValueError as e:
            raise ValueError("token endpoint %s answered no JSON" % self.endpoint) from e
        t = n.get("access_token") if isinstance(n, dict) else None
        if not isinstance(t, str) or not t.strip():
            raise ValueError("token endpoint %s answered without an access_token" % self.endpoint)
        try:
            life = max(0.0, float(n.get("expires_in", 60)))
        except (TypeError, ValueError):
            life = 60.0
        keep = life - MARGIN if life > 2 * MARGIN else life / 2
        self._token = t
        self._renew_at = now + keep


def _oauth_error(body: str) -> Optional[str]:
    """The OAuth error of a refusal ("invalid_client: …"), never the secret that was sent."""
    try:
        n = json.loads(body)
    except (TypeError, ValueError):
        return None
    if not isinstance(n, dict):
        return None
    error = str(n.get("error") or "")
    description = str(n.get("error_description") or "")
    return error if not description else error + ": " + description


def _enc(s: str) -> str:
    """Form encoding as Java's URLEncoder does it (a space becomes "+")."""
    return urllib.parse.quote_plus(s)

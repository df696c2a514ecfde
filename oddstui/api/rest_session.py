"""The HTTP session under `ApiClient`: one request with the key, bounded retries, the budget,
the interface's errors, and JSON lists whose malformed items are counted and skipped.

- It keeps the `x-ratelimit-*` budget in `client.budget` and waits out a 429, 502, 503 or 504
  (a bounded number of times, honouring `Retry-After`, never longer than `max_retry_wait`).
- The API key never leaves it except in the request itself: errors, logs and reprs show
  `apiKey=***`, and no httpx exception (whose request holds the full URL) is ever chained.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import ssl
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Self, TypeVar
from urllib.parse import urlsplit

import httpx

from oddstui.api.budget import BudgetTracker, retry_after_seconds
from oddstui.api.errors import (
    BadRequest,
    Forbidden,
    MalformedRecord,
    NotFound,
    RateLimited,
    RequestRejected,
    ServerError,
    ServiceError,
    ServiceUnavailable,
    Unauthorized,
)
from oddstui.api.models import (
    Budget,
)
from oddstui.api.redact import install_log_redaction, plain, redact

log = logging.getLogger("oddstui.api")
install_log_redaction()

T = TypeVar("T")
SEQ_HEADERS = ("X-Service-Seq", "X-OddsAPI-Seq")
# Statuses worth a bounded retry: rate limited, and a gateway or service briefly unavailable.
RETRIED = frozenset({429, 502, 503, 504})
_ERRORS: dict[int, type[ServiceError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
}
Params = dict[str, str | int | float]


def check_base_url(base_url: str) -> str:
    """The base URL without a trailing slash; `RequestRejected` unless it is http(s)://host/.../v3."""
    if not isinstance(base_url, str):
        raise RequestRejected("base URL must be a string")
    try:
        parts = urlsplit(base_url.strip())
        parts.port  # noqa: B018  (reading it raises ValueError for a bad port)
    except ValueError:
        raise RequestRejected("base URL is not a valid URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RequestRejected("base URL must start with http:// or https:// and name a host")
    if parts.query or parts.fragment or parts.username or parts.password:
        raise RequestRejected("base URL must not carry a query, fragment or credentials")
    if not parts.path.rstrip("/").endswith("/v3"):
        raise RequestRejected("base URL must end in the version segment /v3")
    return base_url.strip().rstrip("/")


@functools.cache
def _verified_tls() -> ssl.SSLContext:
    """httpx's own default (certifi's CA bundle), built once: loading the bundle takes a tenth
    of a second, paid by every client that builds its own."""
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


def tls_for(base_url: str) -> ssl.SSLContext:
    """The TLS context of a client of `base_url`. A plain-http client (the built-in service on
    loopback) never makes a TLS connection, since redirects are not followed: it gets a context
    that trusts no certificate at all, so that one never could, and costs nothing to build."""
    if urlsplit(base_url).scheme == "https":
        return _verified_tls()
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


class RestSession:
    """The session one `ApiClient` sends through (see there).

    `transport` replaces the network (tests of the public service's behaviour use an
    `httpx.MockTransport`); `sleep` replaces `asyncio.sleep` for the 429 wait.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = 10.0,
        max_retries: int = 2,
        max_retry_wait: float = 30.0,
        on_budget: Callable[[Budget], None] | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.base_url = check_base_url(base_url)
        self._key = api_key or None
        self._tracker = BudgetTracker(on_budget)
        self._max_retries = max(0, max_retries)
        self._max_retry_wait = max_retry_wait
        self._sleep = sleep
        self.malformed = 0
        """Items of list responses skipped because they did not fit the models."""
        self._http = httpx.AsyncClient(
            base_url=self.base_url + "/",
            transport=transport,
            timeout=timeout,
            headers={"Accept": "application/json", "User-Agent": "oddstui"},
            follow_redirects=False,
            verify=tls_for(self.base_url),
        )

    def __repr__(self) -> str:
        shown = "set" if self._key else "unset"
        return f"{type(self).__name__}(base_url={self.base_url!r}, api_key=<{shown}>)"

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    @property
    def budget(self) -> Budget:
        """The hourly request budget the service last reported."""
        return self._tracker.budget

    @property
    def budget_hour(self) -> float:
        """The service's rate-limit window in seconds as learnt from its answers (an hour)."""
        return self._tracker.hour

    @property
    def requests_sent(self) -> int:
        return self._tracker.requests_sent

    async def _send(
        self,
        method: str,
        path: str,
        params: Params | None = None,
        *,
        keyed: bool = True,
        accept_404: bool = False,
        body: Any = None,
    ) -> httpx.Response | None:
        query: Params = dict(params or {})
        if keyed:
            if not self._key:
                raise Unauthorized("no API key configured", path=path)
            query["apiKey"] = self._key
        attempt = 0
        while True:
            response = await self._exchange(method, path, query, body)
            self._tracker.observe(response.headers)
            status = response.status_code
            if status in RETRIED:
                wait = retry_after_seconds(response.headers.get("Retry-After"))
                if attempt < self._max_retries and (wait or 0.0) <= self._max_retry_wait:
                    attempt += 1
                    # No Retry-After: a short exponential wait (0.5, 1, 2 s...).
                    delay = wait if wait is not None else 0.5 * 2 ** (attempt - 1)
                    log.warning("%s on %s; retrying in %.1f s", status, path, delay)
                    await self._sleep(delay)
                    continue
                if status == 429:
                    raise RateLimited(self._error_text(response), retry_after=wait, path=path)
            if status == 404 and accept_404:
                return None
            if 200 <= status < 300:
                return response
            kind = _ERRORS.get(status)
            if kind is None:
                raise ServerError(self._error_text(response), status=status, path=path)
            error = kind(self._error_text(response), path=path)
            if isinstance(error, BadRequest):
                error.invalid_bookmakers = _invalid_bookmakers(response)
            raise error

    async def _exchange(
        self, method: str, path: str, query: Params, body: Any = None
    ) -> httpx.Response:
        """One HTTP exchange; transport failures become `ServiceUnavailable`, never chained."""
        failure: str | None = None
        try:
            self._tracker.requests_sent += 1
            response = await self._request(method, path, query, body)
        except httpx.TimeoutException:
            failure = "timed out"
        except (httpx.HTTPError, httpx.InvalidURL, OSError) as error:
            failure = plain(redact(str(error) or type(error).__name__, self._key))
        if failure is not None:
            # Raised outside the except block so the httpx error (its request holds the key)
            # is neither the __cause__ nor the __context__.
            raise ServiceUnavailable(f"{self.base_url}{path}: {failure}")
        log.debug("%s %s -> %s", method, path, response.status_code)
        return response

    async def _request(
        self, method: str, path: str, query: Params, body: Any = None
    ) -> httpx.Response:
        """Send and read one request. A GET whose kept-alive connection the server closed under
        it (a read or protocol error: servers close idle links after a few seconds, and the
        close can cross the request) is sent once more, on a new connection."""
        try:
            response = await self._http.request(method, path.lstrip("/"), params=query, json=body)
            await response.aread()
            return response
        except (httpx.ReadError, httpx.RemoteProtocolError):
            if method != "GET":
                raise
        log.debug("%s %s: the connection closed under it; sending it once more", method, path)
        response = await self._http.request(method, path.lstrip("/"), params=query)
        await response.aread()
        return response

    def _error_text(self, response: httpx.Response) -> str:
        text: Any = None
        try:
            body = response.json()
            if isinstance(body, Mapping):
                text = body.get("error") or body.get("message")
        except (ValueError, UnicodeDecodeError):
            pass
        if not isinstance(text, str) or not text.strip():
            text = response.reason_phrase or f"HTTP {response.status_code}"
        return plain(redact(text, self._key))

    def _json(self, response: httpx.Response, path: str) -> Any:
        try:
            return response.json()
        except (ValueError, UnicodeDecodeError):
            pass
        # Raised outside the handler: a JSONDecodeError keeps the whole body in `.doc`.
        raise MalformedRecord(f"{path}: response is not JSON")

    async def _get_json(
        self, path: str, params: Params | None = None, *, keyed: bool = True
    ) -> Any:
        response = await self._send("GET", path, params, keyed=keyed)
        assert response is not None
        return self._json(response, path)

    def _items(self, body: Any, parse: Callable[[Any], T], path: str) -> list[T]:
        if not isinstance(body, list):
            raise MalformedRecord(f"{path}: response is not a list")
        items: list[T] = []
        skipped = 0
        first_reason = ""
        for raw in body:
            try:
                items.append(parse(raw))
            except MalformedRecord as error:
                skipped += 1
                first_reason = first_reason or str(error)
        if skipped:
            self.malformed += skipped
            log.warning("%s: skipped %d malformed item(s), e.g. %s", path, skipped, first_reason)
        return items

    async def _list(
        self, path: str, parse: Callable[[Any], T], params: Params | None = None, keyed: bool = True
    ) -> list[T]:
        return self._items(await self._get_json(path, params, keyed=keyed), parse, path)

    async def _one(self, path: str, parse: Callable[[Any], T], params: Params | None = None) -> T:
        body = await self._get_json(path, params)
        try:
            return parse(body)
        except MalformedRecord as error:
            raise MalformedRecord(f"{path}: {error}") from None


def response_seq(response: httpx.Response, path: str) -> int:
    for header in SEQ_HEADERS:
        value = response.headers.get(header)
        if value is not None:
            try:
                return int(value.strip())
            except ValueError:
                raise MalformedRecord(f"{path}: {header} is not an integer") from None
    raise MalformedRecord(f"{path}: the response carries no sequence header")


def _invalid_bookmakers(response: httpx.Response) -> tuple[str, ...]:
    try:
        body = json.loads(response.content)
    except (ValueError, UnicodeDecodeError):
        return ()
    names = body.get("invalidBookmakers") if isinstance(body, dict) else None
    if not isinstance(names, list):
        return ()
    return tuple(plain(name, 80) for name in names if isinstance(name, str))

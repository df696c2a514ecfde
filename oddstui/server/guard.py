"""uvicorn's h11 protocol, made to hold up against hostile clients (docs/network.md).

uvicorn on h11 has no header timeout and h11 waits for a whole header block before it parses
anything, so a request line sent without its end, or 4 KB of random bytes, held a socket for
ever. Here each connection:
- must complete a request's headers within `HEADER_TIMEOUT` seconds of connecting (or of the
  previous answer): otherwise it gets 408 (if it sent anything) and is closed;
- gets a 400 `{"error": ...}` and is closed as soon as its first bytes cannot begin a request
  line, and on anything h11 refuses (uvicorn's own answer there is plain text);
- is answered 503 and closed at once when `max_connections` are open already (WebSocket feeds
  included), so a flood costs the service no more than that many sockets.
Everyone else is served meanwhile: nothing here blocks the loop.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from oddstui.server.connection_limits import DEFAULT_MAX_CONNECTIONS, HEADER_TIMEOUT

_TOKEN = rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]"
# What the first bytes of a request may be: blank lines, then a method (a token) and a space.
_REQUEST_START = re.compile(rb"[\r\n]*(?:" + _TOKEN + rb"{1,20}(?: |\Z)|\Z)")
_PHRASES = {400: "Bad Request", 408: "Request Timeout", 503: "Service Unavailable"}


def answer(status: int, message: str, retry_after: int | None = None) -> bytes:
    """A whole HTTP/1.1 answer with a `{"error": ...}` body, closing the connection."""
    body = json.dumps({"error": message}).encode()
    head = (
        f"HTTP/1.1 {status} {_PHRASES[status]}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        + (f"retry-after: {retry_after}\r\n" if retry_after is not None else "")
        + "connection: close\r\n\r\n"
    )
    return head.encode() + body


class GuardedH11Protocol(H11Protocol):
    """Set `max_connections` with `guarded_protocol()`; uvicorn builds one per connection."""

    max_connections = DEFAULT_MAX_CONNECTIONS
    header_timeout = HEADER_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            self._refuse(503, "too many connections; try again shortly", retry_after=1)
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            self._disarm()  # closed, or handed over to the WebSocket protocol
            return
        if self.conn.their_state is not h11.IDLE:
            self._disarm()  # the request's headers are in: the application has it now
            return
        pending = self.conn.trailing_data[0]
        if pending and not _REQUEST_START.match(pending[:64]):
            self._refuse(400, "not an HTTP request")

    def send_400_response(self, msg: str) -> None:
        """What h11 refuses, answered in the house's JSON."""
        self._refuse(400, "invalid HTTP request")

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm()  # a kept-alive connection: the next request's headers are timed too

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_late)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self.conn.trailing_data[0]:
            late = f"the request's headers did not arrive within {self.header_timeout:g} s"
            self._refuse(408, late)
        else:
            self.transport.close()  # an idle connection: nothing to answer

    def _refuse(self, status: int, message: str, retry_after: int | None = None) -> None:
        self._disarm()
        self.transport.write(answer(status, message, retry_after))
        self.transport.close()


def guarded_protocol(max_connections: int = DEFAULT_MAX_CONNECTIONS) -> type[GuardedH11Protocol]:
    """The protocol class for `uvicorn.Config(http=...)`, capped at `max_connections`."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"max_connections": max_connections})

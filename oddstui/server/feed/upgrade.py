"""uvicorn's websockets protocol, made to answer a handshake that websockets refuses to read.

h11 reads the upgrade request first and accepts long lines; websockets then reads it again and
refuses a request line or header line over 8 KiB (or more than 128 headers). It queues its own
plain-text refusal, which uvicorn never sends: the client heard nothing for minutes. Here any
request websockets cannot read gets a 400 with the `{"error": ...}` body at once, and is closed.
"""

from __future__ import annotations

import json

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import HeaderLineTooLong, RequestLineTooLong, TooManyHeaders
from websockets.http11 import Request

from oddstui.server.feed.stall import TRANSPORT_KEY

LIMIT = "at most 8192 bytes a line and 128 headers"
TOO_LONG = f"The feed's handshake is too long ({LIMIT})"
UNREADABLE = "The feed's handshake is not a valid HTTP request"


def refusal(exception: BaseException) -> bytes:
    """The whole HTTP answer to a handshake websockets could not read."""
    too_long = isinstance(exception, RequestLineTooLong | HeaderLineTooLong | TooManyHeaders)
    body = json.dumps({"error": TOO_LONG if too_long else UNREADABLE}).encode()
    head = (
        "HTTP/1.1 400 Bad Request\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode() + body


class FeedUpgradeProtocol(WebSocketsSansIOProtocol):
    """The protocol uvicorn runs after an HTTP upgrade (`uvicorn.Config(ws=...)`).

    It also puts its transport in the scope's extensions, so that the feed can watch whether
    the socket drains and close a stalled one itself (stall.py).
    """

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][TRANSPORT_KEY] = self.transport

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        failure = self.conn.handshake_exc
        if failure is not None and not self.handshake_initiated and not self.close_sent:
            self.conn.data_to_send()  # websockets' own plain-text answer: ours replaces it
            self.handshake_complete = self.close_sent = True
            self.transport.write(refusal(failure))
            self.transport.close()

"""uvicorn's websockets protocol, made to answer a handshake that websockets refuses to read,
and to let the feed write its shared, pre-built frames straight to the socket.

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
from websockets.protocol import State

from oddstui.server.feed.frames import FRAMES_KEY
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
    the socket drains and close a stalled one itself (stall.py), and itself as a `FrameSink`
    (frames.py): the ASGI send encodes and frames each message for each client and costs a task
    switch each; the feed's frames are the same bytes for every client on one filter.
    """

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][TRANSPORT_KEY] = self.transport
            scope["extensions"][FRAMES_KEY] = DirectFrames(self)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        failure = self.conn.handshake_exc
        if failure is not None and not self.handshake_initiated and not self.close_sent:
            self.conn.data_to_send()  # websockets' own plain-text answer: ours replaces it
            self.handshake_complete = self.close_sent = True
            self.transport.write(refusal(failure))
            self.transport.close()


class DirectFrames:
    """The feed's `FrameSink` (frames.py) on a `FeedUpgradeProtocol`: whole frames onto its
    transport, between the protocol's own writes (its handshake, pings, close)."""

    def __init__(self, protocol: WebSocketsSansIOProtocol) -> None:
        self._protocol = protocol

    def plain(self) -> bool:
        # With permessage-deflate every frame must go through the connection's compressor.
        protocol = self._protocol
        return protocol.handshake_complete and not protocol.conn.extensions

    def ready(self) -> bool:
        return self._protocol.writable.is_set() and self._open()

    def write(self, wire: bytes) -> None:
        self._protocol.transport.write(wire)

    async def send(self, wire: bytes) -> None:
        protocol = self._protocol
        await protocol.writable.wait()
        if not self._open():
            raise ConnectionError("the feed connection is closed")
        protocol.transport.write(wire)

    def _open(self) -> bool:
        protocol = self._protocol
        return (
            not protocol.close_sent
            and not protocol.disconnected
            and protocol.conn.state is State.OPEN
            and not protocol.transport.is_closing()
        )

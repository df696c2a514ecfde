"""A TCP proxy in front of the real built-in service that breaks links on request.

The service keeps its own state, replay and snapshots; the proxy only hurts the transport:
- `drop()`: abort every open link at once (the connection drops mid-stream)
- `cut_mid_frame()`: forward a WebSocket frame only partly, then abort (a frame cut mid-JSON)
- `blackhole()`: keep the sockets open but forward nothing either way (a silent half-open link)
New links after a fault pass normally, so the client can recover through the same address.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field


class FrameTracker:
    """Follows WebSocket frame boundaries in the server-to-client byte stream (never masked)."""

    def __init__(self) -> None:
        self._handshake = bytearray()
        self._in_handshake = True
        self._header = bytearray()
        self._payload_left = 0

    def feed(self, data: bytes, want_cut: bool) -> int | None:
        """Advance over `data`. With `want_cut`, return an index inside a frame's payload where
        cutting leaves that frame incomplete (state is then meaningless), else None."""
        i = 0
        n = len(data)
        while i < n:
            if self._in_handshake:
                self._handshake += data[i:]
                end = self._handshake.find(b"\r\n\r\n")
                if end < 0:
                    return None
                consumed = end + 4 - (len(self._handshake) - (n - i))
                self._in_handshake = False
                i += consumed
                continue
            if self._payload_left:
                if want_cut and self._payload_left >= 2:
                    return i + 1
                step = min(self._payload_left, n - i)
                self._payload_left -= step
                i += step
                continue
            self._header.append(data[i])
            i += 1
            need = self._header_length()
            if need is not None and len(self._header) == need:
                self._payload_left = self._payload_length()
                self._header.clear()
        return None

    def _header_length(self) -> int | None:
        if len(self._header) < 2:
            return None
        size = self._header[1] & 0x7F
        extra = 2 if size == 126 else 8 if size == 127 else 0
        return 2 + extra + (4 if self._header[1] & 0x80 else 0)

    def _payload_length(self) -> int:
        size = self._header[1] & 0x7F
        if size == 126:
            return int.from_bytes(self._header[2:4], "big")
        if size == 127:
            return int.from_bytes(self._header[2:10], "big")
        return size


@dataclass
class Link:
    client: asyncio.StreamWriter
    upstream: asyncio.StreamWriter
    is_feed: bool = False
    request_line: str = ""
    silent: bool = False
    cut: bool = False
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    def abort(self) -> None:
        for writer in (self.client, self.upstream):
            transport = writer.transport
            if not transport.is_closing():
                transport.abort()


class FaultProxy:
    """`async with FaultProxy(port) as proxy:` then connect to `proxy.base_url`."""

    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.links: list[Link] = []
        self.feed_links = 0
        self._server: asyncio.Server | None = None
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v3"

    async def __aenter__(self) -> FaultProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.close()
        for link in self.links:
            link.abort()
            for task in link.tasks:
                task.cancel()
        await self._server.wait_closed()

    def drop(self) -> None:
        for link in self._live_feed_links():
            link.abort()

    def cut_mid_frame(self) -> None:
        for link in self._live_feed_links():
            link.cut = True

    def blackhole(self) -> None:
        for link in self._live_feed_links():
            link.silent = True

    def feed_requests(self) -> list[str]:
        """The request line of every feed link, in order (they hold the key: tests only)."""
        return [link.request_line for link in self.links if link.is_feed]

    def _live_feed_links(self) -> list[Link]:
        return [
            link for link in self.links if link.is_feed and not link.client.transport.is_closing()
        ]

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        link = Link(writer, up_writer)
        self.links.append(link)
        link.tasks = [
            asyncio.create_task(self._pump_up(link, reader)),
            asyncio.create_task(self._pump_down(link, up_reader)),
        ]

    async def _pump_up(self, link: Link, reader: asyncio.StreamReader) -> None:
        first = True
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await reader.read(65536):
                if first:
                    first = False
                    link.is_feed = data.startswith(b"GET /v3/ws")
                    link.request_line = data.split(b"\r\n", 1)[0].decode("latin-1")
                    self.feed_links += link.is_feed
                if link.silent:
                    continue
                link.upstream.write(data)
                await link.upstream.drain()
        if not link.silent:
            link.abort()

    async def _pump_down(self, link: Link, reader: asyncio.StreamReader) -> None:
        tracker = FrameTracker()
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await reader.read(65536):
                if link.silent:
                    continue
                cut = tracker.feed(data, link.cut and link.is_feed)
                if cut is not None:
                    link.client.write(data[:cut])
                    await link.client.drain()
                    link.abort()
                    return
                link.client.write(data)
                await link.client.drain()
        if not link.silent:
            link.abort()

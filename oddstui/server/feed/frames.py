"""The feed's text frames, built once and shared by every connection that gets the same messages.

A fan-out hands connections with equal filters and selections one list of message texts; a
`FrameCache` (one per flush) joins that list into frames once, and each frame encodes its bytes
on the wire once. So fifty connections on one filter cost one join and one encoding per tick,
and then fifty socket writes. `FRAMES_KEY` is where `FeedUpgradeProtocol` puts the connection's
`FrameSink` in the scope: a way to write such bytes straight to the socket.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

FRAMES_KEY = "oddstui.frames"
_TEXT = 0x81  # FIN and the text opcode (RFC 6455, 5.2)


class FrameSink(Protocol):
    """Writes whole, pre-built frames to one client's socket, between the server's own writes."""

    def plain(self) -> bool:
        """Whether the connection takes the frames' bytes as they are (accepted, and with no
        extension such as permessage-deflate in use)."""
        ...

    def ready(self) -> bool:
        """Whether a frame written now goes straight out: open, not closing, writes not paused."""
        ...

    def write(self, wire: bytes) -> None:
        """Write now; only when `ready()`."""
        ...

    async def send(self, wire: bytes) -> None:
        """Write once the socket takes writes again; raises ConnectionError once it is closed."""
        ...


def sink_of(scope: Mapping[str, Any]) -> FrameSink | None:
    """The accepted connection's sink, if its server offers one and the frames fit it."""
    sink = scope.get("extensions", {}).get(FRAMES_KEY)
    if sink is None or not hasattr(sink, "plain") or not sink.plain():
        return None
    return sink


class Frame:
    """One text frame: its text, and its bytes as a server sends them (unmasked, uncompressed)."""

    __slots__ = ("text", "_wire")

    def __init__(self, text: str) -> None:
        self.text = text
        self._wire: bytes | None = None

    def __len__(self) -> int:
        return len(self.text)

    def wire(self) -> bytes:
        if self._wire is None:
            payload = self.text.encode()
            self._wire = text_header(len(payload)) + payload
        return self._wire


def text_header(length: int) -> bytes:
    """The header of an unmasked, unfragmented text frame of `length` payload bytes."""
    if length < 126:
        return bytes((_TEXT, length))
    if length < 1 << 16:
        return struct.pack("!BBH", _TEXT, 126, length)
    return struct.pack("!BBQ", _TEXT, 127, length)


def split_frames(texts: Sequence[str], limit: int) -> list[Frame]:
    """Newline-joined frames of `texts`: one, unless it would be over `limit` characters (a
    client's message limit); then split between messages, never inside one."""
    total = sum(map(len, texts)) + len(texts)
    if total <= limit:
        return [Frame("\n".join(texts))]
    frames: list[Frame] = []
    start, size = 0, 0
    for index, text in enumerate(texts):
        if size and size + len(text) > limit:
            frames.append(Frame("\n".join(texts[start:index])))
            start, size = index, 0
        size += len(text) + 1
    frames.append(Frame("\n".join(texts[start:])))
    return frames


class FrameCache:
    """One flush's frames per list of texts: connections handed the same list share them."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        # Keyed by the list's identity; the list is kept with its frames so the id stays its own.
        self._frames: dict[int, tuple[Sequence[str], list[Frame]]] = {}

    def frames(self, texts: Sequence[str]) -> list[Frame]:
        known = self._frames.get(id(texts))
        if known is not None and known[0] is texts:
            return known[1]
        frames = split_frames(texts, self._limit)
        self._frames[id(texts)] = (texts, frames)
        return frames

"""Whether a feed client's socket still drains, measured where the bytes are, not by counting.

A client that stops reading fills its receive buffer, then the kernel's send buffer, then the
transport's; how many bytes that takes depends on the kernels, so no byte bound tells a stalled
client from a slow one. What does: a client that reads, however slowly, acknowledges bytes. A
socket with bytes waiting to go out (in the transport or the kernel) whose peer has acknowledged
nothing for `STALL_LIMIT` seconds is stalled. Where TCP_INFO is missing, the transport's write
buffer not shrinking stands in for the acknowledgements.

The transport comes from the scope (`TRANSPORT_KEY`, put there by `FeedUpgradeProtocol`); on a
server that does not, nothing is watched and only the queue bound applies.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import Mapping
from typing import Any

TRANSPORT_KEY = "oddstui.transport"
STALL_LIMIT = 5.0  # seconds with bytes waiting and none acknowledged
CHECK_EVERY = 0.5
_BYTES_ACKED = struct.Struct("=Q")
_BYTES_ACKED_OFFSET = 120  # tcpi_bytes_acked in Linux's struct tcp_info (since 4.1)


def transport_of(scope: Mapping[str, Any]) -> asyncio.Transport | None:
    transport = scope.get("extensions", {}).get(TRANSPORT_KEY)
    return transport if isinstance(transport, asyncio.Transport) else None


class DrainWatch:
    """Samples one transport; `stalled(now)` says whether it has not drained for the limit."""

    def __init__(self, transport: asyncio.Transport, limit: float = STALL_LIMIT) -> None:
        self._transport = transport
        self._limit = limit
        self._socket = transport.get_extra_info("socket")
        self._progress_at: float | None = None
        self._mark: int | None = None

    def waiting(self) -> int:
        """Bytes not yet acknowledged: the transport's buffer plus the kernel's send queue."""
        return self._transport.get_write_buffer_size() + self._kernel_queue()

    def stalled(self, now: float) -> bool:
        if self._progress_at is None or self.waiting() == 0:
            self._progress_at, self._mark = now, self._progress_mark()
            return False
        mark = self._progress_mark()
        if mark != self._mark:
            self._progress_at, self._mark = now, mark
            return False
        return now - self._progress_at >= self._limit

    def _progress_mark(self) -> int:
        """A number that changes whenever the peer takes bytes."""
        acked = self._bytes_acked()
        if acked is not None:
            return acked
        # No TCP_INFO: a buffer that shrank (to a new low) is progress.
        size = self._transport.get_write_buffer_size()
        return min(size, self._mark) if self._mark is not None else size

    def _bytes_acked(self) -> int | None:
        if self._socket is None or not hasattr(socket, "TCP_INFO"):
            return None
        try:
            info = self._socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
        except OSError:
            return None
        if len(info) < _BYTES_ACKED_OFFSET + _BYTES_ACKED.size:
            return None
        return int(_BYTES_ACKED.unpack_from(info, _BYTES_ACKED_OFFSET)[0])

    def _kernel_queue(self) -> int:
        """The kernel's unsent and unacknowledged bytes (Linux SIOCOUTQ); 0 where unknown."""
        if self._socket is None:
            return 0
        with contextlib.suppress(OSError, ValueError, AttributeError, ImportError):
            import fcntl  # POSIX only
            import termios

            raw = fcntl.ioctl(self._socket.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
            return int(struct.unpack("i", raw)[0])
        return 0


def close_frame(code: int, reason: str) -> bytes:
    """A server's (unmasked) close frame, for a transport whose writes are paused."""
    payload = struct.pack("!H", code) + reason.encode()[:123]
    return bytes((0x88, len(payload))) + payload


def abort_if_held(transport: asyncio.Transport) -> None:
    """Abort a socket that still holds unsent bytes or was never closed. One that closed on its
    own is left alone: asyncio's transport, once its buffer drained after `close()`, has let go
    of its loop, and an abort then raises inside the loop's callback."""
    if transport.get_write_buffer_size() > 0 or not transport.is_closing():
        transport.abort()

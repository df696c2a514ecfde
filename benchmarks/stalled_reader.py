"""What a feed client that stops reading gets from `oddstui serve`, measured (docs/network.md).

A raw socket does the WebSocket handshake, reads the welcome and stops reading (no library
reads in the background). Then, per trial:
- it never reads again: the time from its last read until the service holds its socket no more
  (its process lists no connection to the client's port), polled every 50 ms; and whether the
  client's own kernel sees the connection end (its TCP state leaves ESTABLISHED);
- it reads again after P seconds and reads to the end; what it sees last: the close
  frame's code (4008 = slow consumer) or the end of the stream / a reset with no close frame.

    python benchmarks/stalled_reader.py [--updates-per-second 2000] [--pauses 4,8,12,16,24]
        [--trials 3]
"""

from __future__ import annotations

import argparse
import base64
import os
import socket
import struct
import sys
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import start_serve, stop_serve  # noqa: E402

TCP_ESTABLISHED = 1
MARKETS = "ML,Spread,Totals,Both Teams To Score,Double Chance,Draw No Bet"


def connect(base: str) -> socket.socket:
    parts = urlsplit(base)
    query = urlencode({"apiKey": "demo", "markets": MARKETS})
    sock = socket.create_connection((parts.hostname, parts.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {parts.path}/ws?{query} HTTP/1.1\r\nHost: {parts.netloc}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)  # byte by byte: nothing past the headers is taken
    if not head.startswith(b"HTTP/1.1 101"):
        raise SystemExit(f"handshake refused: {head[:80]!r}")
    return sock


def state(sock: socket.socket) -> int:
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0]


def never_reads(base: str, service: psutil.Process) -> tuple[float, float]:
    """Seconds from the last read until the service let go of the socket (its process holds
    no connection to this port), and until the client's kernel saw it end (inf: not in 60 s)."""
    sock = connect(base)
    port = sock.getsockname()[1]
    sock.recv(4096)  # some of the stream: the last read
    last_read = time.monotonic()
    released = ended = float("inf")
    while time.monotonic() - last_read < 60 and ended == float("inf"):
        now = time.monotonic() - last_read
        if released == float("inf") and not any(
            c.raddr and c.raddr.port == port for c in service.net_connections("tcp")
        ):
            released = now
        if state(sock) != TCP_ESTABLISHED:
            ended = now
        if released != float("inf") and now > released + 10:
            break  # the client's side: it stays open as long as it does not read (see docs)
        time.sleep(0.05)
    sock.close()
    return released, ended


def read_exact(sock: socket.socket, count: int) -> bytes:
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def reads_after(base: str, pause: float) -> str:
    sock = connect(base)
    sock.recv(4096)
    time.sleep(pause)
    sock.settimeout(5)
    resumed = time.monotonic()
    try:
        while time.monotonic() - resumed < 5:  # then it is served on (it answers no pings)
            first, size = read_exact(sock, 2)
            length = size & 0x7F
            if length == 126:
                length = struct.unpack("!H", read_exact(sock, 2))[0]
            elif length == 127:
                length = struct.unpack("!Q", read_exact(sock, 8))[0]
            payload = read_exact(sock, length)
            if first & 0x0F == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                return f"close frame {code} {payload[2:].decode(errors='replace')!r}"
        return "served on: no close in 5 s of reading again"
    except EOFError:
        return "end of stream, no close frame"
    except ConnectionResetError:
        return "connection reset, no close frame"
    except TimeoutError:
        return "served on: no close, and nothing for 5 s"
    finally:
        sock.close()


def main(args: argparse.Namespace) -> None:
    process, base = start_serve("--updates-per-second", str(args.updates_per_second))
    try:
        print(
            f"oddstui serve --updates-per-second {args.updates_per_second:g}; load average "
            f"{os.getloadavg()[0]:.1f}"
        )
        service = psutil.Process(process.pid)
        drops = [never_reads(base, service) for _ in range(args.trials)]
        shown = ", ".join(f"{r:.1f}" for r, _ in drops)
        ends = ", ".join(f"{e:.1f}" for _, e in drops)
        print(
            f"  never reads again: the service let go of the socket {shown} s after the last "
            f"read; the client's kernel saw the end after {ends} s"
        )
        for pause in (float(p) for p in args.pauses.split(",")):
            seen = [reads_after(base, pause) for _ in range(args.trials)]
            print(f"  reads again after {pause:g} s: " + "; ".join(seen))
        print(f"  load average at the end {os.getloadavg()[0]:.1f}")
    finally:
        stop_serve(process)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--updates-per-second", type=float, default=2000.0)
    parser.add_argument("--pauses", default="4,8,12,16,24")
    parser.add_argument("--trials", type=int, default=3)
    main(parser.parse_args())

"""An over-long feed handshake is refused at once, over a raw socket: 400 and `{"error": ...}`.

h11 reads the upgrade request, then websockets reads it again with 8 KiB line limits; before the
fix the refusal websockets queued was never sent and the client waited for minutes.
"""

from __future__ import annotations

import json
import socket
import time

import pytest

from tests.service.conftest import Service

SERVICE_OPTIONS = {"speed": 60, "updates_per_second": 50}
UPGRADE = (
    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
)


def exchange(service: Service, request: str, timeout: float = 5.0) -> tuple[bytes, float]:
    """Send one raw request; everything the service answers until it closes, and how long the
    first bytes took."""
    with socket.create_connection((service.host, service.port), timeout=timeout) as sock:
        started = time.monotonic()
        sock.sendall(request.encode())
        answer = b""
        first = None
        while True:
            chunk = sock.recv(65536)  # a timeout here is the hang this test is about
            if not chunk:
                break
            first = first if first is not None else time.monotonic() - started
            answer += chunk
    return answer, first if first is not None else timeout


def handshake(service: Service, query: str = "", extra: str = "") -> str:
    target = f"/v3/ws?apiKey={service.key}&markets=ML{query}"
    return f"GET {target} HTTP/1.1\r\nHost: {service.host}\r\n{UPGRADE}{extra}\r\n"


@pytest.mark.parametrize(
    "shape",
    ["a long request line", "a long header line", "too many headers"],
)
def test_an_over_long_handshake_gets_400_with_an_error_body_at_once(
    service: Service, shape: str
) -> None:
    request = {
        "a long request line": handshake(service, query="&sport=" + "x" * 9000),
        "a long header line": handshake(service, extra=f"X-Pad: {'y' * 9000}\r\n"),
        "too many headers": handshake(
            service, extra="".join(f"X-H{n}: {n}\r\n" for n in range(200))
        ),
    }[shape]
    answer, seconds = exchange(service, request)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert b"content-type: application/json" in head.lower()
    assert set(json.loads(body)) == {"error"}
    assert "too long" in json.loads(body)["error"]
    assert seconds < 2.0


def test_a_handshake_just_under_the_limit_still_opens(service: Service) -> None:
    request = handshake(service, extra=f"X-Pad: {'y' * 8000}\r\n")
    with socket.create_connection((service.host, service.port), timeout=5) as sock:
        sock.sendall(request.encode())
        assert sock.recv(65536).startswith(b"HTTP/1.1 101 ")


def test_rest_answers_the_same_length(service: Service) -> None:
    target = f"/v3/sports?apiKey={service.key}&pad={'x' * 9000}"
    answer, _ = exchange(
        service, f"GET {target} HTTP/1.1\r\nHost: {service.host}\r\nConnection: close\r\n\r\n"
    )
    assert answer.startswith(b"HTTP/1.1 200 ")

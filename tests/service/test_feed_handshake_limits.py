"""An over-long feed handshake is refused at once, over a raw socket: 400 and `{"error": ...}`.

h11 reads the upgrade request, then websockets reads it again with 8 KiB line limits; before the
fix the refusal websockets queued was never sent and the client waited for minutes.
"""

from __future__ import annotations

import json
import socket

import pytest

from tests.service.conftest import Service

SERVICE_OPTIONS = {"speed": 60, "updates_per_second": 50}
UPGRADE = (
    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
)


def exchange(service: Service, request: str, timeout: float = 30.0) -> bytes:
    """Send one raw request; everything the service answers until it closes the connection.
    A socket timeout here is the hang this test is about (minutes before the fix)."""
    with socket.create_connection((service.host, service.port), timeout=timeout) as sock:
        sock.sendall(request.encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


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
    answer = exchange(service, request)  # answered and closed, not left to hang
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 "), answer[:200]
    assert b"content-type: application/json" in head.lower()
    assert set(json.loads(body)) == {"error"}
    assert "too long" in json.loads(body)["error"]


def test_a_handshake_just_under_the_limit_still_opens(service: Service) -> None:
    request = handshake(service, extra=f"X-Pad: {'y' * 8000}\r\n")
    with socket.create_connection((service.host, service.port), timeout=5) as sock:
        sock.sendall(request.encode())
        assert sock.recv(65536).startswith(b"HTTP/1.1 101 ")


def test_rest_answers_the_same_length(service: Service) -> None:
    target = f"/v3/sports?apiKey={service.key}&pad={'x' * 9000}"
    answer = exchange(
        service, f"GET {target} HTTP/1.1\r\nHost: {service.host}\r\nConnection: close\r\n\r\n"
    )
    assert answer.startswith(b"HTTP/1.1 200 ")

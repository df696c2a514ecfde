"""`oddstui serve`, `relay` and `replay` against hostile connections (issue 33, part 2): 300
half-sent requests and 50 of random bytes are all answered or closed within 15 s, while a normal
client's requests are answered in under a second throughout; over `--max-connections`, a new
connection gets 503 at once."""

from __future__ import annotations

import asyncio
import random
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.recording.test_cli_input import write_recording
from tests.relay.relaying import DESK_KEYS, launch_relay
from tests.serving import launch, launch_replay, terminate

pytestmark = pytest.mark.timeout(120)
HALF_SENT, GARBAGE = 300, 50
ALL_CLOSED_WITHIN = 15.0
ANSWERED_WITHIN = 1.0


@pytest.fixture(params=["serve", "relay", "replay"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """The base URL of one of the three servers, and a key it takes."""
    processes: list[subprocess.Popen[str]] = []
    try:
        if request.param == "replay":
            write_recording(tmp_path / "rec")
            process, base = launch_replay(tmp_path / "rec")
            processes.append(process)
            yield base, "demo"
            return
        process, base = launch("--port", "0")
        processes.append(process)
        if request.param == "relay":
            process, base = launch_relay(base, "demo", tmp_path)
            processes.append(process)
            yield base, DESK_KEYS[0]
            return
        yield base, "demo"
    finally:
        for process in reversed(processes):
            terminate(process)


async def held(host: str, port: int, first_bytes: bytes) -> tuple[float, bytes]:
    """Send `first_bytes` and never more; when the server closed, and what it answered."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(first_bytes)
    answer = b""
    try:
        while chunk := await reader.read(4096):
            answer += chunk
    except ConnectionError:
        pass
    writer.close()
    return time.monotonic(), answer


async def normal_client(base: str, key: str, done: asyncio.Event) -> list[float]:
    """GET /sports every 0.1 s until `done`; each answer's time."""
    times: list[float] = []
    async with httpx.AsyncClient(timeout=10) as http:
        while not done.is_set():
            start = time.monotonic()
            answer = await http.get(f"{base}/sports", params={"apiKey": key})
            times.append(time.monotonic() - start)
            assert answer.status_code < 500, answer.text
            await asyncio.sleep(0.1)
    return times


async def test_half_sent_and_garbage_requests_are_closed_and_others_served(
    server: tuple[str, str],
) -> None:
    base, key = server
    parts = urlsplit(base)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    rng = random.Random(33)
    done = asyncio.Event()
    client = asyncio.create_task(normal_client(base, key, done))
    started = time.monotonic()
    half = [
        asyncio.create_task(held(host, port, b"GET /v3/sports?apiKey=" + key.encode()))
        for _ in range(HALF_SENT)
    ]
    garbage = [asyncio.create_task(held(host, port, rng.randbytes(4096))) for _ in range(GARBAGE)]
    try:
        results = await asyncio.wait_for(asyncio.gather(*half, *garbage), ALL_CLOSED_WITHIN + 10)
    finally:
        done.set()
    times = await client
    closed_after = max(at for at, _ in results) - started
    print(
        f"all closed {closed_after:.1f} s after; normal requests: {len(times)}, "
        f"slowest {max(times):.3f} s"
    )
    assert closed_after < ALL_CLOSED_WITHIN
    # non-empty: HALF_SENT sockets then the garbage ones were opened above, each noted here
    assert all(answer.startswith(b"HTTP/1.1 408 ") for _, answer in results[:HALF_SENT])
    assert all(answer.startswith(b"HTTP/1.1 400 ") for _, answer in results[HALF_SENT:])
    assert len(times) >= 10, "the normal client asked throughout"
    assert max(times) < ANSWERED_WITHIN


async def test_a_connection_over_the_cap_gets_503_at_once(tmp_path: Path) -> None:
    process, base = launch("--port", "0", "--max-connections", "5")
    try:
        parts = urlsplit(base)
        idle = [await asyncio.open_connection(parts.hostname, parts.port) for _ in range(5)]
        async with httpx.AsyncClient(timeout=10) as http:
            answer = await http.get(f"{base}/sports", params={"apiKey": "demo"})
        assert answer.status_code == 503
        assert answer.json() == {"error": "too many connections; try again shortly"}
        for _, writer in idle:
            writer.close()
        async with httpx.AsyncClient(timeout=10) as http:
            answer = await http.get(f"{base}/sports", params={"apiKey": "demo"})
        assert answer.status_code == 200
    finally:
        terminate(process)


async def test_h11_refusals_are_json_and_a_kept_alive_connection_is_timed_again() -> None:
    process, base = launch("--port", "0")
    try:
        parts = urlsplit(base)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        writer.write(b"GET /v3/sports HTTP/1.1\r\nno colon here\r\n\r\n")
        refused = await asyncio.wait_for(reader.read(), 10)
        assert refused.startswith(b"HTTP/1.1 400 ")
        assert refused.endswith(b'{"error": "invalid HTTP request"}')
        writer.close()

        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        host = f"Host: {parts.netloc}\r\n".encode()
        writer.write(b"GET /v3/sports?apiKey=demo HTTP/1.1\r\n" + host + b"\r\n")
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert head.startswith(b"HTTP/1.1 200 ")
        length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
        await reader.readexactly(length)
        writer.write(b"GET /v3/sports?apiKey=demo HTTP/1.1\r\n")  # then nothing more
        started = time.monotonic()
        late = await asyncio.wait_for(reader.read(), ALL_CLOSED_WITHIN)
        assert late.startswith(b"HTTP/1.1 408 ")
        assert time.monotonic() - started < ALL_CLOSED_WITHIN
        writer.close()
    finally:
        terminate(process)

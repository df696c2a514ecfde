"""`oddstui serve` as a real subprocess on a loopback port, for the service's own tests.

- `start_service(folder, ...)` starts one with a temporary accounts file and returns a
  `Service` (base URL, keys by role, the process, its stderr file); `stop_service` sends SIGTERM.
- The module-scoped `service` fixture starts one per test module. A module tunes it with a
  module-level `SERVICE_OPTIONS = {"speed": 120, "updates_per_second": 500, ...}` (any keyword of
  `start_service`), so every test of the module shares one process.
- `service_factory` starts extra services for one test and stops them afterwards.
"""

from __future__ import annotations

import os
import re
import secrets
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

READY = re.compile(r"^serving (http://(\S+):(\d+)/v3)$")
START_TIMEOUT = 30.0


def _key(role: str) -> str:
    return f"k-{role}-{secrets.token_hex(8)}"


@dataclass(frozen=True)
class Keys:
    """One key per kind of account the tests need."""

    paid: str = field(default_factory=lambda: _key("paid"))  # paid, feed, 5000/h, own selection
    free: str = field(default_factory=lambda: _key("free"))  # free plan, no feed
    nofeed: str = field(default_factory=lambda: _key("nofeed"))  # paid, no feed, +10K package
    tiny: str = field(default_factory=lambda: _key("tiny"))  # paid, 3 requests an hour
    default: str = field(default_factory=lambda: _key("default"))  # paid, default selection


PAID_SELECTION = ("Bet365", "Pinnacle", "Unibet", "SingBet")


def accounts_toml(keys: Keys) -> str:
    books = ", ".join(f'"{name}"' for name in PAID_SELECTION)
    return f"""
[[account]]
key = "{keys.paid}"
plan = "paid"
feed = true
requests_per_hour = 5000
bookmakers = [{books}]

[[account]]
key = "{keys.free}"
plan = "free"
feed = false

[[account]]
key = "{keys.nofeed}"
plan = "paid"
feed = false
requests_per_hour = 15000

[[account]]
key = "{keys.tiny}"
plan = "paid"
requests_per_hour = 3

[[account]]
key = "{keys.default}"
plan = "paid"
feed = true
"""


@dataclass
class Service:
    base_url: str
    host: str
    port: int
    keys: Keys
    process: subprocess.Popen[bytes]
    stderr_path: Path
    ready_line: str

    @property
    def key(self) -> str:
        """The paid key with the feed: the one most tests use."""
        return self.keys.paid

    def url(self, path: str) -> str:
        return self.base_url + path

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace")


def serve_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "oddstui", "serve", *args]


def start_service(
    folder: Path,
    *,
    speed: float | None = None,
    updates_per_second: float | None = None,
    replay_window: float | None = None,
    bookmakers: int | None = None,
    seed: int | None = None,
    accounts: str | None | bool = True,
    extra_args: Sequence[str] = (),
    timeout: float = START_TIMEOUT,
) -> Service:
    """Start `oddstui serve --port 0`; `accounts=True` writes the test accounts (see `Keys`),
    a string writes that TOML, False or None runs without --accounts (the `demo` key)."""
    folder.mkdir(parents=True, exist_ok=True)
    keys = Keys()
    args = ["--port", "0"]
    if accounts:
        path = folder / f"accounts-{secrets.token_hex(4)}.toml"
        path.write_text(accounts_toml(keys) if accounts is True else str(accounts))
        args += ["--accounts", str(path)]
    for flag, value in (
        ("--speed", speed),
        ("--updates-per-second", updates_per_second),
        ("--replay-window", replay_window),
        ("--bookmakers", bookmakers),
        ("--seed", seed),
    ):
        if value is not None:
            args += [flag, str(value)]
    stderr_path = folder / f"serve-{secrets.token_hex(4)}.stderr"
    with open(stderr_path, "wb") as stderr:
        process = subprocess.Popen(
            serve_command(*args, *extra_args),
            stdout=subprocess.PIPE,
            stderr=stderr,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    line = read_ready_line(process, timeout)
    match = READY.match(line)
    if match is None:
        stop_service_process(process)
        raise RuntimeError(f"unexpected ready line {line!r}; stderr: {stderr_path.read_text()}")
    return Service(
        base_url=match.group(1),
        host=match.group(2),
        port=int(match.group(3)),
        keys=keys,
        process=process,
        stderr_path=stderr_path,
        ready_line=line,
    )


def read_ready_line(process: subprocess.Popen[bytes], timeout: float) -> str:
    assert process.stdout is not None
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    buffer = b""
    try:
        while time.monotonic() < deadline:
            if selector.select(timeout=0.1):
                chunk = os.read(process.stdout.fileno(), 4096)
                if not chunk:
                    break
                buffer += chunk
                if b"\n" in buffer:
                    return buffer.split(b"\n", 1)[0].decode()
            elif process.poll() is not None:
                break
    finally:
        selector.close()
    stop_service_process(process)
    raise RuntimeError(
        f"oddstui serve gave no ready line (exit {process.returncode}); stdout: {buffer!r}"
    )


def stop_service_process(process: subprocess.Popen[bytes], timeout: float = 15.0) -> int:
    """SIGTERM, then wait; kill only if it does not stop in time. Returns the exit status."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
    if process.stdout is not None:
        process.stdout.close()
    return process.returncode


def stop_service(service: Service) -> int:
    return stop_service_process(service.process)


@pytest.fixture(scope="module")
def service(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Service]:
    options: dict[str, Any] = dict(getattr(request.module, "SERVICE_OPTIONS", {}))
    running = start_service(tmp_path_factory.mktemp("service"), **options)
    yield running
    stop_service(running)


@pytest.fixture(scope="module")
def http(service: Service) -> Iterator[httpx.Client]:
    """A client on the module's service; `http.get("/odds", params=...)` (apiKey not added)."""
    with httpx.Client(base_url=service.base_url, timeout=30.0) as client:
        yield client


@pytest.fixture
def service_factory(tmp_path: Path) -> Iterator[Callable[..., Service]]:
    started: list[Service] = []

    def start(**options: Any) -> Service:
        running = start_service(tmp_path / f"s{len(started)}", **options)
        started.append(running)
        return running

    yield start
    for running in started:
        stop_service(running)

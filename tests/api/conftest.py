"""The real built-in service on a loopback port, for the client tests.

One service per xdist worker (session scope), started as `oddstui serve --port 0` with a few
accounts; the ready line `serving http://HOST:PORT/v3` gives the base URL.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.serving import launch, terminate

PAID_KEY = "k-paid-4f1c9a7e2b8d6c35"
FREE_KEY = "k-free-77aa01bc9d3e"
TINY_KEY = "k-tiny-5e0d"  # 3 requests an hour: shows 429
ACCOUNTS = f"""
[[account]]
key = "{PAID_KEY}"
plan = "paid"
feed = true
bookmakers = ["Bet365", "Pinnacle", "Unibet", "William Hill", "SingBet"]

[[account]]
key = "{FREE_KEY}"
plan = "free"
feed = false

[[account]]
key = "{TINY_KEY}"
plan = "paid"
feed = false
requests_per_hour = 3
"""


@dataclass(frozen=True)
class Service:
    base_url: str
    process: subprocess.Popen[str]


def start_service(folder: Path, *extra: str, timeout: float = 30.0) -> Service:
    accounts = folder / "accounts.toml"
    accounts.write_text(ACCOUNTS)
    process, base_url = launch("--port", "0", "--accounts", str(accounts), *extra, timeout=timeout)
    return Service(base_url, process)


def stop_service(process: subprocess.Popen[str]) -> None:
    terminate(process)


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    # Real-time speed: the service's simulated clock then equals the wall clock, which
    # /odds/updated (`since` at most 90 s old, in service time) needs.
    running = start_service(tmp_path_factory.mktemp("service"), "--seed", "7", "--speed", "1")
    try:
        yield running
    finally:
        stop_service(running.process)

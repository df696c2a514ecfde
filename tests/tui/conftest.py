"""The real built-in service as a subprocess, and the TUI wired to it.

Each test module that needs a service gets its own `oddstui serve --port 0` (parallel-safe under
xdist); tests that break the service (stop it) start their own with `start_service`.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from oddstui import config
from tests.serving import launch, terminate

DEMO_KEY = "demo"


@dataclass
class Service:
    base_url: str
    process: subprocess.Popen[str]

    def stop(self) -> None:
        terminate(self.process)


def start_service(*flags: str, timeout: float = 30.0) -> Service:
    process, base_url = launch("--port", "0", *flags, timeout=timeout)
    return Service(base_url, process)


@pytest.fixture(scope="module")
def fast_service() -> Iterator[Service]:
    """A busy world: 60x speed, so goals and kick-offs happen within seconds."""
    service = start_service("--speed", "60", "--seed", "11", "--updates-per-second", "200")
    yield service
    service.stop()


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Config and watchlist in a temporary folder, never the user's."""
    monkeypatch.setenv(config.HOME_ENV, str(tmp_path))
    monkeypatch.delenv(config.KEY_ENV, raising=False)
    return tmp_path


async def wait_for(condition: Callable[[], object], pilot: object, timeout: float = 30.0) -> None:
    """Let the app run until `condition()` is true; fail with the condition's name otherwise."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        await pilot.pause(0.1)  # type: ignore[attr-defined]
    raise AssertionError(f"timed out waiting for {condition_name(condition)}")


async def ticks_pass(app: Any, pilot: object, count: int = 2) -> None:
    """The positive marker of "and nothing changed over the next ticks": the desk's one-second
    tick has run `count` more times, however loaded the machine is."""
    start = app.hub.ticks
    await wait_for(lambda: app.hub.ticks >= start + count, pilot, timeout=30)


def condition_name(condition: Callable[[], object]) -> str:
    """A condition's name, and for a lambda the line that wrote it (a test waits on several)."""
    name = getattr(condition, "__name__", repr(condition))
    code = getattr(condition, "__code__", None)
    if name == "<lambda>" and code is not None:
        return f"the lambda at {Path(code.co_filename).name}:{code.co_firstlineno}"
    return name


async def feed_moves_on(app: Any, pilot: object, messages: int = 500) -> None:
    """Wait until the desk's feed has taken `messages` more messages (its seq moves that far):
    the positive marker of "and nothing more happened" checks, however loaded the machine is."""
    feed = app.hub.feed
    assert feed is not None, "the desk has no feed"
    start = feed.health().last_seq or 0
    await wait_for(lambda: (feed.health().last_seq or 0) >= start + messages, pilot, timeout=60)

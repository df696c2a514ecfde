"""The desk against `oddstui replay`: the recorded matches, clocks and prices show, and the
status bar names the replay with its speed; the desk's `--record` records what it receives."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oddstui.recording import FeedMessage, Snapshot, open_recording
from oddstui.tui.browse.live import LiveScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.status_bar import StatusBar
from oddstui.tui.launch import build_app
from tests.serving import READY, read_ready, terminate
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for
from tests.tui.screen_text import screen_text

pytestmark = pytest.mark.timeout(150)
PRICE = re.compile(r"\b\d{1,3}\.\d{2,3}\b")  # a decimal price, as the Event screen prints it


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Eight wall seconds of a 60x world, recorded by `oddstui record`."""
    service = start_service("--speed", "60", "--seed", "11")
    folder = tmp_path_factory.mktemp("desk-replay") / "rec"
    try:
        env = {**os.environ, "ODDSTUI_API_KEY": DEMO_KEY}
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "oddstui",
                "record",
                "--out",
                str(folder),
                "--base-url",
                service.base_url,
                "--duration",
                "8s",
            ],
            capture_output=True,
            text=True,
            timeout=90,
            env=env,
        )
        assert result.returncode == 0, result.stderr
    finally:
        service.stop()
    yield folder


@contextlib.contextmanager
def replaying(recorded: Path, speed: str) -> Iterator[Service]:
    process = subprocess.Popen(
        [sys.executable, "-m", "oddstui", "replay", str(recorded), "--port", "0", "--speed", speed],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        yield Service(read_ready(process, READY, 60.0, "oddstui replay"), process)
    finally:
        terminate(process)


async def test_desk_shows_the_replay(recorded: Path) -> None:
    with replaying(recorded, "10") as replay:
        app = build_app(replay.base_url, DEMO_KEY)
        async with app.run_test(size=(140, 40)) as pilot:
            await _shows_the_replay(app, pilot)


async def _shows_the_replay(app: Any, pilot: Any) -> None:
    live = app.screen
    assert isinstance(live, LiveScreen)
    table = live.query_one(PatchTable)

    def status() -> str:
        return str(live.query_one(StatusBar).render())

    await wait_for(lambda: table.row_count > 0 and "REPLAY 10×" in status(), pilot, 60)
    clocks = [table.cell_text(key, "clock") for key in table.row_keys]
    assert any(clock.strip() for clock in clocks)  # the recorded matches' clocks
    await pilot.press("enter")  # the first match's Event screen: its recorded prices
    await wait_for(lambda: app.screen is not live, pilot, 30)
    await wait_for(lambda: PRICE.search(screen_text(app)) is not None, pilot, 30)
    assert "REPLAY 10×" in str(app.screen.query_one(StatusBar).render())


async def test_desk_record_writes_what_it_receives(recorded: Path, tmp_path: Path) -> None:
    folder = tmp_path / "desk-rec"
    with replaying(recorded, "1") as replay:  # eight seconds of messages to take
        app = build_app(replay.base_url, DEMO_KEY, record=str(folder))
        async with app.run_test(size=(140, 40)) as pilot:
            await _records(app, pilot, folder)
    _check_recorded(folder)


async def _records(app: Any, pilot: Any, folder: Path) -> None:
    feed = app.hub.feed
    assert feed is not None
    await wait_for(lambda: (feed.health().last_seq or 0) > 0, pilot, 60)
    await wait_for(lambda: len(list(open_recording(folder).records())) > 5, pilot, 60)


def _check_recorded(folder: Path) -> None:
    recording = open_recording(folder)
    assert recording.manifest.ended is not None  # closed when the desk quit
    records = list(recording.records())
    assert any(isinstance(r, Snapshot) and r.events for r in records)  # the live events
    messages = [r for r in records if isinstance(r, FeedMessage) and r.seq is not None]
    assert messages and recording.manifest.bookmakers

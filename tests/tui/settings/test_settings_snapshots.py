"""Snapshots of Settings, Bookmakers, the movement chart, closing odds and the alert rule modal
at 120x40 and 80x24, replaying answers recorded from `oddstui serve --seed 42` with time frozen
(data/settings.json, made by `python -m tests.tui.record_settings`).

Regenerate after an intended change: `pytest tests/tui/settings/test_settings_snapshots.py
--snapshot-update`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from oddstui.tui.event.closing_odds import ClosingOdds
from oddstui.tui.event.price_history import PriceHistory
from tests.tui.conftest import wait_for
from tests.tui.record_settings import SHOTS, load, settings_app

SIZES = [(120, 40), (80, 24)]
ACTIONS = dict(SHOTS)
#: What shows that a shot has finished loading (a loaded box can be slow to get there).
READY: dict[str, Callable[[Any], bool]] = {
    "bookmakers": lambda app: app.screen.query_one("#bookmaker-list").option_count > 0,
    "movement": lambda app: len(app.screen.query_one(PriceHistory).books) > 1,
    "closing": lambda app: any(w.rows for w in app.screen.query(ClosingOdds)),
}


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


async def settle(pilot: Any) -> None:
    for _ in range(2):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.3)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("shot", list(ACTIONS))
def test_shot(snap_compare: Any, tmp_path: Path, shot: str, size: tuple[int, int]) -> None:
    state = load()
    app = settings_app(tmp_path, state)

    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        ACTIONS[shot](pilot.app, state)
        await settle(pilot)
        ready = READY.get(shot)
        if ready is not None:
            await wait_for(lambda: ready(pilot.app), pilot)
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False  # a blinking cursor differs from run to run
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)

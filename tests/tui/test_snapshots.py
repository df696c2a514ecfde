"""Snapshots of every screen at 120x40 and 80x24 (Live also at 200x50, and with its table
sorted, filtered and its columns chosen), from a recorded state with time frozen.

The Event screen and the part-2 boards (arbitrage, value bets, dropping odds) keep their
snapshots with their own tests.

Regenerate after an intended change: `pytest tests/tui/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.tui.recorded import SCREENS, load, recorded_app

SIZES = [(120, 40), (80, 24)]


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    """Start times and the status-bar clock are local time: make it the same everywhere."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


async def settle(pilot: Any) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause(0.3)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause(0.3)


def go(action: Callable[[Any, Any], object]) -> Callable[[Any], Awaitable[None]]:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        action(pilot.app, load())
        await settle(pilot)

    return run_before


#: The screens of part 1; the Event screen and the part-2 boards snapshot themselves.
MINE = ("live", "sports", "leagues", "events", "watchlist", "help")
ACTIONS = {name: (mode, action) for name, mode, action in SCREENS if name in MINE}


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("screen", MINE)
def test_screen(snap_compare: Any, tmp_path: Path, screen: str, size: tuple[int, int]) -> None:
    mode, action = ACTIONS[screen]
    app = recorded_app(tmp_path, start_mode=mode)
    run_before = go(action) if action else settle
    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_live_on_a_wide_terminal(snap_compare: Any, tmp_path: Path) -> None:
    """200 columns: every column, wider names and leagues."""
    app = recorded_app(tmp_path, start_mode="live")
    assert snap_compare(app, terminal_size=(200, 50), run_before=settle)


#: Keys for a table worked on: sorted by clock, latest first, then found by a word.
TABLE_KEYS = {
    "sorted-found": ("o", "o", "o", "o", "O", "F", *"united", "enter"),
    "columns": ("c", "down", "down", "down"),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("keys", list(TABLE_KEYS))
def test_table_choices(snap_compare: Any, tmp_path: Path, keys: str, size: tuple[int, int]) -> None:
    app = recorded_app(tmp_path, start_mode="live")
    assert snap_compare(app, terminal_size=size, press=TABLE_KEYS[keys], run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("state", ["offline", "replaced"])
def test_feed_banner(snap_compare: Any, tmp_path: Path, state: str, size: tuple[int, int]) -> None:
    app = recorded_app(tmp_path, start_mode="live", feed_state=state)
    assert snap_compare(app, terminal_size=size, run_before=settle)

"""Snapshots of the trading boards, the stake ticket and the search at 120x40 and 80x24.

They replay recorded answers of `oddstui serve --seed 42` (data/boards.json, made by
`python -m tests.tui.record_boards`) with time frozen, like the shell's snapshots. Regenerate
after an intended change: `pytest tests/tui/test_boards_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from tests.tui.boards_recorded import boards_app
from tests.tui.record_boards import SEARCH

SIZES = [(120, 40), (80, 24)]


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


async def settle(pilot: Any) -> None:
    for _ in range(2):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.3)


def then(*keys: str) -> Callable[[Any], Awaitable[None]]:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        if keys:
            await pilot.press(*keys)
            for field in pilot.app.screen.query(Input):
                field.cursor_blink = False  # a blinking cursor differs from run to run
            await pilot.pause(0.5)  # the search's debounce
            await settle(pilot)

    return run_before


SHOTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "arbitrage": ("arbitrage", ()),
    "ticket": ("arbitrage", ("enter",)),
    "value": ("value", ()),
    "dropping": ("dropping", ()),
    "search": ("value", ("slash", *SEARCH)),  # over a board of ours, not the shell's
}


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("shot", list(SHOTS))
def test_board(snap_compare: Any, tmp_path: Path, shot: str, size: tuple[int, int]) -> None:
    mode, keys = SHOTS[shot]
    app = boards_app(tmp_path, mode)
    assert snap_compare(app, terminal_size=size, run_before=then(*keys))

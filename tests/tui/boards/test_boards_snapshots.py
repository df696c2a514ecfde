"""Snapshots of the trading boards, the stake ticket and the search at 120x40 and 80x24.

They replay recorded answers of `oddstui serve --seed 42` (data/boards.json, made by
`python -m tests.tui.record_boards`) with time frozen, like the shell's snapshots. Regenerate
after an intended change: `pytest tests/tui/boards/test_boards_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.tui.boards_recorded import SHOTS, boards_app, show

SIZES = [(120, 40), (80, 24)]


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def then(*keys: str) -> Callable[[Any], Awaitable[None]]:
    async def run_before(pilot: Any) -> None:
        await show(pilot, keys)

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("shot", list(SHOTS))
def test_board(snap_compare: Any, tmp_path: Path, shot: str, size: tuple[int, int]) -> None:
    mode, keys = SHOTS[shot]
    app = boards_app(tmp_path, mode)
    assert snap_compare(app, terminal_size=size, run_before=then(*keys))

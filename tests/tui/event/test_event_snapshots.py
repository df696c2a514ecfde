"""Snapshots of the Event screen at 120x40, 80x24 and 200x50, from a recorded state, time frozen.

Regenerate after an intended change:
`pytest tests/tui/event/test_event_snapshots.py --snapshot-update`
(and re-record the state with `python -m tests.tui.record_event_state` only when the service's
wire changes).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.tui.event_recorded import event_app, open_recorded_event

SIZES = [(120, 40), (80, 24), (200, 50)]


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_event_screen(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    app, event_id = event_app(tmp_path)

    async def run_before(pilot: Any) -> None:
        await open_recorded_event(pilot, event_id)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_event_screen_fractional_totals(snap_compare: Any, tmp_path: Path) -> None:
    """Fractional odds, the Totals market on its main line."""
    app, event_id = event_app(tmp_path, odds_format="fractional")

    async def run_before(pilot: Any) -> None:
        await open_recorded_event(pilot, event_id)
        await pilot.press("m", "m")
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)

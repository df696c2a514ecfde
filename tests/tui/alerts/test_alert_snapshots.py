"""Snapshots of the alert rules screen and of the rule modal opened on a rule, at 120x40 and
80x24, replaying the boards' recording (data/boards.json) with time frozen. Regenerate after an
intended change: `pytest tests/tui/alerts/test_alert_snapshots.py --snapshot-update`."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.tui.alerts_recorded import SHOTS, alert_app, show

SIZES = [(120, 40), (80, 24)]


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("shot", list(SHOTS))
def test_alert_screens(snap_compare: Any, tmp_path: Path, shot: str, size: tuple[int, int]) -> None:
    app, state = alert_app(tmp_path)

    async def run_before(pilot: Any) -> None:
        await show(pilot, state, SHOTS[shot])

    assert snap_compare(app, terminal_size=size, run_before=run_before)

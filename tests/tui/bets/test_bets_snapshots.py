"""Snapshots of the Bets screen at 80x24, 120x40 and 200x50: a settled bet with its P&L and CLV,
an open one, and one settled by hand, from a bet log written here (time frozen, in UTC).

Regenerate after an intended change:
`pytest tests/tui/bets/test_bets_snapshots.py --snapshot-update`, then look at the SVGs.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from oddstui.betlog.bets import Bet, BetLeg
from oddstui.betlog.store import BetLog
from tests.tui.recorded import recorded_app
from tests.tui.test_snapshots import settle

SIZES = [(80, 24), (120, 40), (200, 50)]
PLACED = 1_795_600_000.0


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def write_log(path: Path) -> None:
    log = BetLog(path)
    log.record(
        Bet(
            event_id=9_000_001,
            placed_at=PLACED,
            board="Arbitrage",
            event_name="Lukas Müller v Haruto Brown",
            legs=(
                BetLeg("ML", None, "home", "Pinnacle", 2.06, 49.0, result=-1.0,
                       settled_by="score", close_price=1.917, close_fair=1.9514,
                       sharp_book="Pinnacle"),
                BetLeg("ML", None, "away", "SingBet", 2.09, 51.0, result=1.0,
                       settled_by="score", close_price=2.015, close_fair=2.0511,
                       sharp_book="Pinnacle"),
            ),
            sport="tennis",
            league="ITF - Men Heraklion",
            settled_at=PLACED + 3600,
            final_score="1-2",
        )
    )  # fmt: skip
    log.record(
        Bet(
            event_id=9_000_002,
            placed_at=PLACED + 600,
            board="Arbitrage",
            event_name="Wanderers Brașov v Stonebridge Wanderers",
            legs=(
                BetLeg("Totals", 2.5, "over", "Bet365", 2.08, 49.0),
                BetLeg("Totals", 2.5, "under", "1xBet", 2.02, 51.0),
            ),
            sport="football",
        )
    )
    log.record(
        Bet(
            event_id=9_000_003,
            placed_at=PLACED + 900,
            board="Arbitrage",
            event_name="Real Oviedo v Sporting Gijón",
            legs=(
                BetLeg("Corners Spread", -1.5, "home", "Unibet", 2.3, 45.0, result=0.0,
                       settled_by="hand"),
                BetLeg("Corners Spread", -1.5, "away", "Betway", 1.9, 55.0, result=1.0,
                       settled_by="hand"),
            ),
            sport="football",
            settled_at=PLACED + 7200,
            final_score="",
        )
    )  # fmt: skip


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_bets_screen(snap_compare: Any, tmp_path: Path, home: Path, size: tuple[int, int]) -> None:
    write_log(home / "bets.sqlite")
    app = recorded_app(tmp_path, start_mode="bets")
    assert snap_compare(app, terminal_size=size, run_before=settle)

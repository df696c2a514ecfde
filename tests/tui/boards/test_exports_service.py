"""Exports are data, against the real service: the Arbitrage board at 80 columns (where its
table hides columns and cuts names) exports every leg's bookmaker and price as numbers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for


async def test_an_arbitrage_export_at_80_columns_has_every_leg_as_numbers(
    fast_service: Service, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, ArbitrageScreen)
        table = screen.query_one(PatchTable)
        await pilot.press("h")  # the suspect rows too: the export says which they are
        await wait_for(lambda: table.row_count >= 3, pilot, timeout=30)
        await pilot.press("p")  # paused: the rows stay while they are exported and read
        await pilot.press("E")
        await wait_for(lambda: list(tmp_path.glob("oddstui-arbitrage-*.json")), pilot)
        await pilot.press("e")
        await wait_for(lambda: list(tmp_path.glob("oddstui-arbitrage-*.csv")), pilot)
        keys = table.row_keys
        rows = [screen.arbs.rows[key] for key in keys]
        reasons = [screen.suspects.get(key, "") for key in keys]

    (json_path,) = tmp_path.glob("oddstui-arbitrage-*.json")
    records = json.loads(json_path.read_text())
    assert records and len(records) == len(rows)
    for record, row, reason in zip(records, rows, reasons, strict=True):
        assert record["eventId"] == row.event_id
        assert record["suspect"] is bool(reason) and record["suspectReason"] == reason
        assert record["market"] == row.market and record["line"] == row.hdp
        assert record["legs"] == len(row.legs) >= 2
        assert record["profitPct"] == pytest.approx(row.profit_pct)
        assert isinstance(record["sport"], str) and record["event"]
        for number, leg in enumerate(row.legs, 1):
            assert record[f"leg{number}Bookmaker"] == leg.bookmaker  # whole, never cut
            assert record[f"leg{number}Side"] == leg.side
            assert record[f"leg{number}Price"] == leg.price
            assert isinstance(record[f"leg{number}Price"], float)
            assert isinstance(record[f"leg{number}Stake"], float)
        stakes = [record[f"leg{n}Stake"] for n in range(1, len(row.legs) + 1)]
        assert sum(stakes) == pytest.approx(record["totalStake"])
        # Equal returns on the total (each leg at what it pays, net of commission).
        returns = [stake * leg.paid for stake, leg in zip(stakes, row.legs, strict=True)]
        assert max(returns) == pytest.approx(min(returns))

    (csv_path,) = tmp_path.glob("oddstui-arbitrage-*.csv")
    with csv_path.open(newline="") as handle:
        table_rows = list(csv.DictReader(handle))
    assert len(table_rows) == len(rows)
    first = table_rows[0]
    assert int(first["eventId"]) == rows[0].event_id
    assert float(first["leg1Price"]) == rows[0].legs[0].price
    assert first["leg1Bookmaker"] == rows[0].legs[0].bookmaker

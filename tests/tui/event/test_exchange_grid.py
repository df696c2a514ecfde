"""Exchanges on the Event grid (pure figures from a real `OddsBook`, and the grid widget): lay
prices in their own columns, margins over back prices, and hidden columns marked when narrow."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult

from oddstui.book.exchange import net_back
from oddstui.book.oddsbook import OddsBook
from oddstui.book.probability import margin
from oddstui.tui.event import price_rows
from oddstui.tui.event.grid_cells import fitting_columns
from oddstui.tui.event.price_cells import grid_columns, row_cells
from oddstui.tui.event.price_grid import PriceGrid
from oddstui.tui.kit.columns import Column
from tests.tui.event.test_event_rows import EVENT, record
from tests.tui.screen_text import screen_text

ML_SIDES = ["home", "draw", "away", "layHome", "layDraw", "layAway"]


def ml(**prices: float) -> dict[str, Any]:
    return {"name": "ML", "odds": [prices]}


def exchange_book() -> OddsBook:
    book = OddsBook(clock=lambda: 100.0)
    book.install_snapshot(
        [
            record(
                {
                    "Betfair Exchange": [
                        ml(
                            home=2.10,
                            draw=3.60,
                            away=3.90,
                            layHome=2.12,
                            layDraw=3.65,
                            layAway=3.95,
                        )
                    ],
                    "Bet365": [ml(home=2.06, draw=3.40, away=3.70)],
                    "Smarkets": [ml(home=2.08, draw=3.55, away=3.85, layHome=2.11, layAway=4.0)],
                }
            )
        ]
    )
    return book


def rows(commission: float = 0.0) -> dict[str, price_rows.GridRow]:
    book = exchange_book()
    sides = price_rows.sides_of(book, EVENT, "ML", (None, None))
    assert sides == ML_SIDES  # back sides first, then the lay columns
    found = price_rows.grid_rows(
        book, EVENT, "ML", (None, None), sides, 100.0, stale_after=90.0, commission=commission
    )
    return {row.bookmaker: row for row in found}


def test_every_book_has_a_margin_over_its_back_prices() -> None:
    by_name = rows()
    assert by_name["Bet365"].margin == pytest.approx(margin([2.06, 3.40, 3.70]))
    assert by_name["Betfair Exchange"].margin == pytest.approx(margin([2.10, 3.60, 3.90]))
    assert all(row.margin is not None and 0 < row.margin < 0.1 for row in by_name.values())


def test_the_commission_setting_counts_on_exchanges_only() -> None:
    by_name = rows(commission=0.05)
    assert by_name["Bet365"].margin == pytest.approx(margin([2.06, 3.40, 3.70]))
    net = [net_back(p, 0.05) for p in (2.10, 3.60, 3.90)]
    assert by_name["Betfair Exchange"].margin == pytest.approx(margin(net))
    # Home at 2.10 on the exchange pays 2.045 after 5 %: Bet365's 2.06 is the best back price.
    assert by_name["Bet365"].prices[0].best and not by_name["Betfair Exchange"].prices[0].best
    assert rows()["Betfair Exchange"].prices[0].best  # without commission the 2.10 is best


def test_lay_prices_are_own_columns_and_the_lowest_is_best() -> None:
    by_name = rows()
    betfair, smarkets, bet365 = by_name["Betfair Exchange"], by_name["Smarkets"], by_name["Bet365"]
    lay_home = ML_SIDES.index("layHome")
    assert smarkets.prices[lay_home].best and not betfair.prices[lay_home].best  # 2.11 < 2.12
    assert bet365.prices[lay_home].price is None
    cells = row_cells(smarkets, ML_SIDES, "decimal")
    assert cells["layHome"].text == "2.11" and "best" in cells["layHome"].roles
    assert cells["layDraw"].text == "–"  # Smarkets lays no draw
    labels = [column.label for column in grid_columns(ML_SIDES)]
    assert labels == [
        "Bookmaker",
        "Home",
        "Draw",
        "Away",
        "Lay 1",
        "Lay X",
        "Lay 2",
        "Margin",
        "Age",
    ]


def test_columns_that_do_not_fit_are_hidden_by_priority_and_counted() -> None:
    columns = grid_columns(ML_SIDES)
    everything = sum(column.width + 1 for column in columns)
    assert [c.key for c in fitting_columns(columns, everything)] == [c.key for c in columns]
    at_80 = [c.key for c in fitting_columns(columns, 78)]
    assert at_80 == ["book", "home", "draw", "away", "margin"]  # age, then lays, go first
    at_60 = [c.key for c in fitting_columns(columns, 58)]
    assert at_60 == ["book", "home", "draw", "away"]  # back prices always stay
    assert [c.key for c in fitting_columns(columns, 10)] == ["book", "home", "draw", "away"]
    two = [Column("a", "A", 5), Column("b", "B", 5, priority=1)]
    assert fitting_columns(two, 12) == two


class GridApp(App[None]):
    def compose(self) -> ComposeResult:
        yield PriceGrid()


@pytest.mark.parametrize(("width", "marker"), [(80, "+4 more ›"), (120, None)])
async def test_a_narrow_grid_marks_its_hidden_columns(width: int, marker: str | None) -> None:
    app = GridApp()
    async with app.run_test(size=(width, 10)) as pilot:
        grid = app.query_one(PriceGrid)
        grid.fit_width(width - 2)
        grid.set_columns(grid_columns(ML_SIDES))
        row = rows()["Betfair Exchange"]
        grid.sync_rows({"Betfair Exchange": row_cells(row, ML_SIDES, "decimal")})
        await pilot.pause()
        header = screen_text(app).splitlines()[0]
        if marker is None:
            assert "more ›" not in header and "Lay 2" in header and "Age" in header
        else:
            assert header.rstrip().endswith(marker)
            assert "Lay 1" not in header and "Margin" in header
            assert [c.key for c in grid.hidden_columns] == ["layHome", "layDraw", "layAway", "age"]
        grid.fit_width(200)  # wider again: everything comes back
        await pilot.pause()
        assert grid.hidden_columns == [] and "more ›" not in screen_text(app).splitlines()[0]

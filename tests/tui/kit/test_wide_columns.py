"""At 200 columns the desk's cells fit their columns (issue 32, small lie L5: `27 Nov 17:5`,
`Layover`, `Layunder`, `Top 1st in…`, `⚠ +28.0` were cut or run together). Pure: no textual."""

from __future__ import annotations

from oddstui.tui.boards.arbitrage.arb_cells import ARB_COLUMNS
from oddstui.tui.boards.dropping import DroppingOddsScreen, _moved
from oddstui.tui.browse.event_rows import LIVE_COLUMNS
from oddstui.tui.event.price_rows import side_label
from oddstui.tui.intel.stale_rows import STALE_COLUMNS
from oddstui.tui.kit.columns import Column, fit

WIDE = 200


def widths(columns: list[Column], available: int = WIDE) -> dict[str, int]:
    return {column.key: width for column, width in fit(columns, available)}


def test_the_dropping_boards_moved_time_fits() -> None:
    text = _moved(1_795_794_600_000)  # a two-digit day and hour: `27 Nov 17:50`
    assert len(text) == 12
    assert widths(DroppingOddsScreen.COLUMNS)["moved"] >= len(text)


def test_an_exchanges_lay_of_a_total_is_two_words() -> None:
    assert side_label("layOver") == "Lay Over"
    assert side_label("layUnder") == "Lay Under"
    assert side_label("layHome") == "Lay 1"  # the 1X2 lays keep their short names


def test_the_live_lists_period_names_fit_at_200_columns() -> None:
    assert widths(LIVE_COLUMNS)["detail"] >= len("Top 1st inning")
    assert widths(LIVE_COLUMNS)["periods"] >= len("0-2 0-0 0-0 0-1 1-0 2-1 0-0 0-1 0-0")


def test_the_stale_lines_edge_and_names_fit_at_200_columns() -> None:
    shown = widths(STALE_COLUMNS)
    assert shown["ev"] >= len("⚠ +146.1%")
    assert shown["market"] >= len("Double Chance HT")
    assert shown["event"] >= len("Škoda Plzeň Rangers v Třinec Rovers")


def test_the_arbitrage_events_name_fits_at_200_columns() -> None:
    assert widths(ARB_COLUMNS)["event"] >= len("Škoda Plzeň Athletic v Harrowgate Wanderers")

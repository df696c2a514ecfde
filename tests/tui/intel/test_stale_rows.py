"""The Stale lines board's rows and cells from an engine fed a known series (pure: no textual):
the side the move left behind, its price and fair price, the EV between them, the move in that
side's prices, and ⚠ by the boards' one suspect rule."""

from __future__ import annotations

from oddstui.book.fair_policy import FAIR_POLICY
from oddstui.book.value import expected_value
from oddstui.intel.engine import IntelEngine
from oddstui.intel.settings import IntelSettings
from oddstui.tui.intel.stale_rows import stale_cells, stale_records, stale_rows
from tests.intel.synthetic import open_line, sharp_move, two_way

KEY = (7, "Spread", (-1.5, None))
TEAMS = ("Arsenal", "Chelsea")


def fair_price(p_home: float, side: str) -> float:
    """`side`'s fair price by the desk's one policy of the sharp books' two-way line at
    `p_home` (the synthetic series' margin-free chance, at the sharp books' 2 %)."""
    line = FAIR_POLICY.fair_line({"Pinnacle": two_way(p_home, 0.02)}, ("away", "home"))
    assert line is not None
    return line.prices()[("away", "home").index(side)]


def _engine(after: float) -> IntelEngine:
    """Home's margin-free chance moves 0.40 -> `after` at the sharp books; Slow stays."""
    engine = IntelEngine(IntelSettings(tau=1.0))
    open_line(engine, KEY, 0.0, 0.40, {"Slow": 0.02, "Quick": 0.05})
    sharp_move(engine, KEY, 10.0, 0.40, after)
    engine.observe(12.0, KEY, "Quick", two_way(after, 0.05))
    engine.advance(20.0)
    return engine


def test_a_row_is_the_side_the_move_shortened_with_its_own_price_fair_and_ev() -> None:
    engine = _engine(0.50)  # home shortens 2.50 -> 2.00 at the sharp books
    [row] = stale_rows(engine)
    assert (row.book, row.side) == ("Slow", "home")
    assert row.price == two_way(0.40, 0.02)["home"]
    assert row.fair is not None and abs(row.fair - 2.0) < 1e-9  # Pinnacle's 50/50, margin out
    assert row.ev is not None and abs(row.ev - expected_value(0.5, row.price)) < 1e-12
    cells = {k: v.plain for k, v in stale_cells(row, TEAMS, 40.0, 0.03, 10.0).items()}
    assert cells["bet"] == "Home -1.5"
    assert (cells["price"], cells["fair"]) == ("2.451", "2.00")
    assert cells["ev"] == "⚠ +22.6%"  # 0.5 × 2.451 − 1, above the suspect threshold of 10 %
    # The move in the policy's fair prices, as the Fair column: Shin's method leaves the long
    # shot longer than the 2.50 of the margin-free chance (it moves long shots most).
    assert row.moved == (fair_price(0.40, "home"), fair_price(0.50, "home"))
    assert cells["move"] == "2.513→2.00"
    assert cells["ago"] == "30s"
    assert cells["event"] == "Arsenal v Chelsea"


def test_a_move_the_other_way_leaves_the_other_side_behind_without_a_mark() -> None:
    engine = _engine(0.36)  # home drifts: away shortens 1.667 -> 1.5625
    [row] = stale_rows(engine)
    assert row.side == "away"
    cells = {k: v.plain for k, v in stale_cells(row, TEAMS, 40.0, 0.03, 10.0).items()}
    assert cells["bet"] == "Away +1.5"
    assert cells["ev"] == f"{row.ev * 100:+.1f}%" and "⚠" not in cells["ev"]
    assert row.moved == (fair_price(0.40, "away"), fair_price(0.36, "away"))
    assert cells["move"] == "1.661→1.556"
    assert not any("dim" in str(span.style) for text in stale_cells(
        row, TEAMS, 40.0, 0.03, 10.0).values() for span in text.spans)
    [record] = stale_records([row], {7: TEAMS}, 40.0, 10.0)
    assert record["bet"] == "Away +1.5" and record["suspect"] == ""
    assert record["price"] == row.price and record["fair"] == row.fair


def test_a_row_whose_price_is_under_the_fair_price_is_dimmed() -> None:
    """Behind a small move by its own view, but its margin keeps its price under the fair one:
    nothing to take there."""
    engine = IntelEngine(IntelSettings(tau=1.0))
    open_line(engine, KEY, 0.0, 0.50, {"Heavy": 0.15})
    sharp_move(engine, KEY, 10.0, 0.50, 0.53)
    engine.advance(20.0)
    [row] = stale_rows(engine)
    assert row.book == "Heavy" and row.ev is not None and row.ev < 0
    cells = stale_cells(row, TEAMS, 40.0, 0.03, 10.0)
    assert cells, "a row has cells"
    assert all(text.spans for text in cells.values())
    assert all("dim" in str(span.style) for text in cells.values() for span in text.spans)


def test_a_book_that_stops_quoting_leaves_the_board() -> None:
    engine = _engine(0.50)
    assert stale_rows(engine)
    engine.observe(30.0, KEY, "Slow", None)  # withdrawn (or its market suspended)
    assert stale_rows(engine) == []

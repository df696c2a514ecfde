"""Exchange prices: lay sides apart from back sides, back prices net of commission (MATHS.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oddstui.book.exchange import (
    back_margin,
    back_sides,
    best_of_books,
    is_exchange,
    is_lay,
    net_back,
)
from oddstui.book.probability import margin


def test_lay_sides_are_named_lay_and_a_capital() -> None:
    assert [is_lay(s) for s in ("layHome", "layDraw", "layAway", "lay", "layer", "home")] == [
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    assert back_sides(["home", "layHome", "draw", "layAway", "away"]) == ["home", "draw", "away"]


def test_exchanges_by_name_or_by_a_lay_price() -> None:
    assert is_exchange("Betfair Exchange") and is_exchange("Smarkets")
    assert not is_exchange("Bet365", {"home": 2.0})
    assert is_exchange("Someone", {"home": 2.0, "layHome": 2.02})


def test_net_back_is_one_plus_winnings_after_commission() -> None:
    assert net_back(3.0, 0.05) == pytest.approx(1 + 2.0 * 0.95)
    assert net_back(3.0, 0.0) == 3.0


def test_margin_is_over_back_prices_only() -> None:
    prices = {"home": 2.10, "draw": 3.60, "away": 3.90, "layHome": 2.12, "layDraw": 3.65}
    sides = ["home", "draw", "away", "layHome", "layDraw", "layAway"]
    assert back_margin(prices, sides) == pytest.approx(margin([2.10, 3.60, 3.90]))
    # Adding the lay prices in (the bug) would count about 50 %; over back prices it is small.
    assert back_margin(prices, sides) < 0.05
    net = back_margin(prices, sides, 0.05)
    assert net == pytest.approx(margin([net_back(p, 0.05) for p in (2.10, 3.60, 3.90)]))
    assert net is not None and net > back_margin(prices, sides)  # commission is a cost
    # A book without lay prices still gets its margin on a line where an exchange lays.
    assert back_margin({"home": 2.0, "draw": 3.5, "away": 4.0}, sides) is not None
    assert back_margin({"home": 2.0, "away": 4.0}, sides) is None  # a back side is missing


def test_best_back_counts_commission_and_best_lay_is_lowest() -> None:
    quotes = {
        "Betfair Exchange": {"home": 2.10, "layHome": 2.14},
        "Bet365": {"home": 2.06},
        "Smarkets": {"home": 2.08, "layHome": 2.12},
    }
    plain = best_of_books(quotes, ["home", "layHome"])
    assert plain == {"home": 2.10, "layHome": 2.12}
    # At 5 % the exchange's 2.10 pays 2.045: Bet365's 2.06 is the better back bet.
    with_commission = best_of_books(quotes, ["home", "layHome"], 0.05)
    assert with_commission == {"home": 2.06, "layHome": 2.12}


@given(
    backs=st.lists(st.floats(1.01, 50.0), min_size=2, max_size=4),
    lays=st.lists(st.floats(1.01, 50.0), min_size=0, max_size=4),
    commission=st.floats(0.0, 0.2),
)
def test_lay_prices_never_change_a_margin(
    backs: list[float], lays: list[float], commission: float
) -> None:
    names = ["home", "draw", "away", "over"][: len(backs)]
    prices = dict(zip(names, backs, strict=True))
    lay_names = ["layHome", "layDraw", "layAway", "layOver"][: len(lays)]
    with_lays = {**prices, **dict(zip(lay_names, lays, strict=False))}
    assert back_margin(with_lays, [*names, *lay_names], commission) == back_margin(
        prices, names, commission
    )


def test_a_one_sided_quote_has_no_margin() -> None:
    """A hold needs every side of a line: one back price alone says nothing about the margin."""
    assert back_margin({"home": 2.0}, ["home"]) is None
    assert back_margin({"home": 2.0, "away": 2.0}, ["home", "away"]) == pytest.approx(0.0)

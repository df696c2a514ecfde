from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui.book.arbitrage import (
    ArbLeg,
    best_prices,
    commission_adjusted,
    exhaustive_sides,
    find_arbitrage,
    market_arbitrage,
    sport_has_draw,
)
from tests.book.strategies import arbitrage_prices, price_lists


def test_best_prices_takes_the_highest_per_side() -> None:
    quotes = {
        "Bet365": {"home": 2.10, "draw": 3.4, "away": 3.5},
        "Pinnacle": {"home": 2.05, "draw": 3.6, "away": 3.7},
        "Unibet": {"home": 2.12, "away": 3.3},
    }
    best = best_prices(quotes, ["home", "draw", "away"])
    assert best == {
        "home": (2.12, "Unibet"),
        "draw": (3.6, "Pinnacle"),
        "away": (3.7, "Pinnacle"),
    }


def test_best_prices_skips_unusable_prices_and_breaks_ties_by_name() -> None:
    quotes = {"Zed": {"over": 1.9, "under": 1.0}, "Abc": {"over": 1.9}, "Mid": {"under": None}}
    assert best_prices(quotes, ["over", "under"]) == {"over": (1.9, "Abc")}  # type: ignore[arg-type]


@pytest.mark.parametrize("names", [("Abc", "Zed"), ("Zed", "Abc")])
def test_a_tie_goes_to_the_first_name_whichever_bookmaker_comes_first(
    names: tuple[str, str],
) -> None:
    quotes = {name: {"home": 2.5, "away": 1.6} for name in names}
    assert best_prices(quotes, ["home", "away"]) == {"home": (2.5, "Abc"), "away": (1.6, "Abc")}


@pytest.mark.parametrize(
    ("market", "sides", "has_draw", "expected"),
    [
        ("ML", {"home", "away"}, True, False),  # two-way in a sport with a draw
        ("ML", {"home", "draw", "away"}, True, True),
        ("ML", {"home", "away"}, False, True),
        ("ML", {"home", "draw", "away"}, False, True),
        ("ML HT", {"home", "away"}, True, False),
        ("Spread", {"home", "away"}, True, True),
        ("Spread HT", {"home"}, True, False),
        ("Corners Spread", {"home", "away"}, True, True),
        ("Totals", {"over", "under"}, True, True),
        ("Totals", {"over"}, True, False),
        ("Team Total Home", {"over", "under"}, True, True),
        ("Player Props", {"over", "under"}, True, True),
        ("Both Teams To Score", {"yes", "no"}, True, True),
        ("Both Teams To Score", {"yes"}, True, False),
        ("Draw No Bet", {"home", "away"}, True, True),
        ("Double Chance", {"home", "draw", "away"}, True, False),
        ("European Handicap", {"home", "away"}, True, False),
        ("Some New Market", {"home", "away"}, False, False),
    ],
)
def test_exhaustive_sides(market: str, sides: set[str], has_draw: bool, expected: bool) -> None:
    assert exhaustive_sides(market, sides, has_draw) is expected


def test_find_arbitrage_on_a_known_set() -> None:
    arb = find_arbitrage({"home": (2.1, "A"), "away": (2.05, "B")})
    assert arb is not None
    assert arb.legs == (ArbLeg("home", 2.1, "A"), ArbLeg("away", 2.05, "B"))
    s = 1 / 2.1 + 1 / 2.05
    assert arb.implied_probability == pytest.approx(s)
    assert arb.profit_pct == pytest.approx((1 / s - 1) * 100)


def test_no_arbitrage_when_the_booksum_is_one_or_more() -> None:
    assert find_arbitrage({"home": (2.0, "A"), "away": (2.0, "B")}) is None
    assert find_arbitrage({"home": (1.9, "A"), "away": (1.95, "B")}) is None
    assert find_arbitrage({"home": (5.0, "A")}) is None


@settings(deadline=None)
@given(arbitrage_prices(), st.floats(10, 10_000))
def test_arbitrage_profit_matches_its_stakes(prices: list[float], total: float) -> None:
    best = {f"side{i}": (d, f"book{i}") for i, d in enumerate(prices)}
    arb = find_arbitrage(best)
    if arb is None:  # rounding the generated prices to 3 places can close a thin arb
        assert sum(1 / d for d in prices) >= 1
        return
    stakes = arb.stakes(total)
    assert sum(stakes) == pytest.approx(total)
    returns = [s * leg.price for s, leg in zip(stakes, arb.legs, strict=True)]
    assert returns == pytest.approx([arb.potential_return(total)] * len(returns))
    assert arb.profit(total) == pytest.approx(min(returns) - total)
    assert arb.profit_pct == pytest.approx(arb.profit(total) / total * 100)
    assert arb.profit_pct > 0


@settings(deadline=None)
@given(price_lists())
def test_find_arbitrage_agrees_with_the_booksum(prices: list[float]) -> None:
    best = {f"side{i}": (d, f"book{i}") for i, d in enumerate(prices)}
    assert (find_arbitrage(best) is not None) == (sum(1 / d for d in prices) < 1)


def test_legs_all_at_one_bookmaker_are_no_arbitrage() -> None:
    # DraftKings Over 26.5 1.72 | DraftKings Under 26.5 2.39: one book's misprice, not an arb.
    assert find_arbitrage({"over": (1.72, "DraftKings"), "under": (2.39, "DraftKings")}) is None
    quotes = {"DraftKings": {"over": 1.72, "under": 2.39}, "Bet365": {"over": 1.6, "under": 2.2}}
    assert market_arbitrage("Totals", quotes, sport_has_draw=False) is None
    found = find_arbitrage({"over": (1.72, "DraftKings"), "under": (2.39, "Bet365")})
    assert found is not None and found.profit_pct > 0


def test_market_arbitrage_needs_every_side() -> None:
    quotes = {"A": {"home": 2.2, "away": 1.8}, "B": {"home": 1.8, "away": 2.2}}
    arb = market_arbitrage("ML", quotes, sport_has_draw=False)
    assert arb is not None
    assert [(leg.side, leg.bookmaker) for leg in arb.legs] == [("home", "A"), ("away", "B")]
    # The same prices in a sport with a draw are not exhaustive.
    assert market_arbitrage("ML", quotes, sport_has_draw=True) is None
    # Double Chance is never an arbitrage set.
    assert market_arbitrage("Double Chance", quotes, sport_has_draw=False) is None


def test_market_arbitrage_ignores_lay_prices() -> None:
    quotes = {"Exchange": {"over": 2.2, "under": 1.7, "layOver": 2.3}, "B": {"under": 2.1}}
    arb = market_arbitrage("Totals", quotes, sport_has_draw=True)
    assert arb is not None
    assert {leg.side for leg in arb.legs} == {"over", "under"}


def test_commission_adjusted() -> None:
    assert commission_adjusted(2.0, 0.05) == pytest.approx(1.95)
    assert commission_adjusted(3.0, 0.0) == 3.0
    with pytest.raises(ValueError, match="commission"):
        commission_adjusted(2.0, 1.0)
    with pytest.raises(ValueError, match="above 1.0"):
        commission_adjusted(1.0, 0.02)


def test_stake_helpers_reject_non_positive_totals() -> None:
    arb = find_arbitrage({"home": (2.1, "A"), "away": (2.05, "B")})
    assert arb is not None
    with pytest.raises(ValueError, match="total stake"):
        arb.stakes(0)


def test_sports_with_a_draw() -> None:
    assert sport_has_draw("football") and sport_has_draw("ice-hockey")
    assert not sport_has_draw("basketball") and not sport_has_draw("tennis")
    assert sport_has_draw("some-new-sport")  # unknown: be cautious

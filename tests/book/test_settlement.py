"""Settling a leg from the final score, its P&L and its closing-line value (MATHS.md)."""

from __future__ import annotations

import pytest

from oddstui.book.settlement import (
    HALF_LOST,
    HALF_WON,
    LOST,
    VOID,
    WON,
    FinalScore,
    leg_profit,
    settle_leg,
    settles_by_score,
)


@pytest.mark.parametrize(
    ("market", "hdp", "side", "home", "away", "draw", "result"),
    [
        ("ML", None, "home", 2, 1, True, WON),
        ("ML", None, "away", 2, 1, True, LOST),
        ("ML", None, "draw", 1, 1, True, WON),
        ("ML", None, "home", 1, 1, False, VOID),  # a two-way price on a tie
        ("Spread", -1.5, "home", 3, 1, True, WON),
        ("Spread", -1.5, "away", 3, 1, True, LOST),
        ("Spread", -2.0, "home", 3, 1, True, VOID),
        ("Spread", 1.5, "away", 3, 1, True, LOST),  # hdp is the home side's: away -1.5
        ("Spread", 1.5, "away", 0, 2, True, WON),
        ("Spread", -0.25, "home", 1, 1, True, HALF_LOST),
        ("Spread", -0.75, "home", 2, 1, True, HALF_WON),
        ("Totals", 2.5, "over", 2, 1, True, WON),
        ("Totals", 2.5, "under", 2, 1, True, LOST),
        ("Totals", 3.0, "under", 2, 1, True, VOID),
        ("Totals", 2.75, "over", 2, 1, True, HALF_WON),  # 2.5 won, 3.0 void
        ("Totals", 3.25, "over", 2, 1, True, HALF_LOST),  # 3.0 void, 3.5 lost
        ("Team Total Home", 1.5, "over", 2, 1, True, WON),
        ("Team Total Away", 1.5, "over", 2, 1, True, LOST),
        ("Draw No Bet", None, "home", 1, 1, True, VOID),
    ],
)
def test_main_markets_settle_from_the_score(
    market: str, hdp: float | None, side: str, home: int, away: int, draw: bool, result: float
) -> None:
    assert settle_leg(market, hdp, side, FinalScore(home, away), has_draw=draw) == result


def test_a_sport_with_a_draw_settles_on_regulation_time() -> None:
    after_extra_time = FinalScore(3, 2, regulation=(2, 2))
    assert settle_leg("ML", None, "draw", after_extra_time, has_draw=True) == WON
    assert settle_leg("ML", None, "home", after_extra_time, has_draw=False) == WON


def test_other_markets_are_settled_by_hand() -> None:
    assert not settles_by_score("Corners Spread")
    assert settle_leg("Corners Spread", 1.5, "home", FinalScore(1, 0), has_draw=True) is None
    assert settle_leg("Player Props", 0.5, "over", FinalScore(1, 0), has_draw=True) is None
    assert settles_by_score("ml") and settles_by_score("Totals")


def test_profit_and_loss_per_leg() -> None:
    assert leg_profit(50.0, 2.1, WON) == pytest.approx(55.0)
    assert leg_profit(50.0, 2.1, LOST) == -50.0
    assert leg_profit(50.0, 2.1, VOID) == 0.0
    assert leg_profit(50.0, 2.1, HALF_WON) == pytest.approx(27.5)
    assert leg_profit(50.0, 2.1, HALF_LOST) == -25.0
    # An exchange pays net of commission on winnings: 1 + (2.1 - 1)(1 - 0.05).
    assert leg_profit(50.0, 2.1, WON, commission=0.05) == pytest.approx(52.25)


@pytest.mark.parametrize(
    ("hdp", "home", "away", "result"),
    [
        (-1.5, 1, 2, WON),  # away +1.5 and won outright
        (-1.5, 2, 1, WON),  # away +1.5 lost by one: the handicap covers it
        (-1.5, 3, 1, LOST),  # away +1.5 lost by two
        (1.5, 1, 2, LOST),  # away -1.5 won by one only
        (1.5, 1, 3, WON),  # away -1.5 won by two
        (-1.0, 2, 1, VOID),  # away +1 lost by one: a push
    ],
)
def test_the_away_side_of_a_spread_takes_the_home_line_negated(
    hdp: float, home: int, away: int, result: float
) -> None:
    """`hdp` is the home side's handicap; the away side plays the opposite number."""
    assert settle_leg("Spread", hdp, "away", FinalScore(home, away), has_draw=False) == result


def test_a_quarter_spread_splits_the_away_side_on_the_negated_line() -> None:
    # Home +0.25 (away -0.25) on a draw: the home side half wins, the away side half loses.
    level = FinalScore(1, 1)
    assert settle_leg("Spread", 0.25, "home", level, has_draw=False) == HALF_WON
    assert settle_leg("Spread", 0.25, "away", level, has_draw=False) == HALF_LOST

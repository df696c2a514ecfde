"""The stake ticket's numbers come from `book.stakes`, and bad input is refused with a reason."""

from __future__ import annotations

import pytest

from oddstui.book.stakes import capped_stakes, equal_return_stakes, rounded_stakes
from oddstui.tui.boards.ticket.stakes import TicketLeg, clipboard_text, place_first, plan_stakes

PRICES = [2.15, 2.02]


def test_total_stake_unrounded_is_equal_returns() -> None:
    plan = plan_stakes(PRICES, "250", "")
    assert plan.stakes == pytest.approx(equal_return_stakes(PRICES, 250))
    assert plan.returns[0] == pytest.approx(plan.returns[1])
    assert plan.guaranteed == pytest.approx(250 / sum(1 / p for p in PRICES) - 250)


def test_total_stake_rounded_matches_book_rounding() -> None:
    plan = plan_stakes(PRICES, "250", "5")
    expected = rounded_stakes(PRICES, 250, 5)
    assert plan.stakes == expected.stakes
    assert plan.guaranteed == pytest.approx(expected.guaranteed)
    assert plan.best_case == pytest.approx(expected.best_case)
    assert all(stake % 5 == 0 for stake in plan.stakes)


def test_capped_leg_keeps_within_its_limit() -> None:
    plan = plan_stakes(PRICES, "40", "", capped_leg=1)
    assert plan.stakes == pytest.approx(capped_stakes(PRICES, 1, 40))
    rounded = plan_stakes([1.5, 3.4], "33", "5", capped_leg=0)
    assert rounded.stakes[0] <= 33
    assert all(stake % 5 == 0 for stake in rounded.stakes)


@pytest.mark.parametrize(
    ("stake", "step", "reason"),
    [
        ("ten", "1", "total stake must be a number, not 'ten'"),
        ("-5", "1", "total stake cannot be negative"),
        ("0", "1", "total stake must be above zero"),
        ("", "1", "total stake is empty"),
        ("10", "25", "rounding step 25 is larger than the total stake 10"),
        ("10", "x", "rounding step must be a number"),
    ],
)
def test_bad_input_is_refused_with_the_reason(stake: str, step: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        plan_stakes(PRICES, stake, step)


def test_place_first_is_the_leg_that_moved_last() -> None:
    steady = TicketLeg("over", "A", 2.1)
    moved_long_ago = TicketLeg("under", "B", 2.0, previous=2.1, moved_ago=600.0)
    moving = TicketLeg("draw", "C", 3.0, previous=3.2, moved_ago=4.0)
    assert place_first([steady, moved_long_ago]) is None
    assert place_first([steady, moving, moved_long_ago]) == 1


def test_clipboard_lists_every_leg_and_the_total() -> None:
    plan = plan_stakes(PRICES, "100", "1")
    text = clipboard_text(
        "X v Y · ML", [TicketLeg("home", "Bet365", 2.15), TicketLeg("away", "Pinnacle", 2.02)], plan
    )
    lines = text.splitlines()
    assert lines[0] == "X v Y · ML"
    assert lines[1].startswith("Bet365\thome\t@ 2.150\t") and lines[1].endswith(
        f"{plan.stakes[0]:.2f}"
    )
    assert lines[-1].startswith(f"total {plan.total:.2f}")

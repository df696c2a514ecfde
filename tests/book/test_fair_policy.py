"""The fair policy kept as quotes change: which changes can move a line's fair line."""

from __future__ import annotations

from oddstui.book.fair_policy import FairPolicy

POLICY = FairPolicy(("Pinnacle", "SingBet"))
SIDES = ("away", "home")


def test_only_the_book_the_line_came_from_or_one_before_it_can_move_it() -> None:
    quotes = {"Pinnacle": {"home": 1.9, "away": 2.0}, "SingBet": {"home": 1.8, "away": 2.1}}
    line = POLICY.fair_line(quotes, SIDES)
    assert line is not None and line.book == "Pinnacle"
    assert POLICY.holds_after(line, "SingBet") and POLICY.holds_after(line, "Bet365")
    assert not POLICY.holds_after(line, "Pinnacle")
    # Made from SingBet (Pinnacle quotes one side only): Pinnacle's change can take it over.
    quotes["Pinnacle"] = {"home": 1.9}
    line = POLICY.fair_line(quotes, SIDES)
    assert line is not None and line.book == "SingBet"
    assert not POLICY.holds_after(line, "Pinnacle") and not POLICY.holds_after(line, "SingBet")
    assert not POLICY.holds_after(None, "SingBet")  # no fair line yet: a sharp book may make one
    # What it promises: a later book's change leaves the line the policy makes again.
    quotes["Pinnacle"] = {"home": 1.9, "away": 2.0}
    line = POLICY.fair_line(quotes, SIDES)
    quotes["SingBet"] = {"home": 1.5, "away": 2.9}
    assert POLICY.holds_after(line, "SingBet") and POLICY.fair_line(quotes, SIDES) == line

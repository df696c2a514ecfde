"""A price rule is checked against what the event offers: pure code, tested directly."""

from __future__ import annotations

import re

import pytest

from oddstui.api.messages import OddsMessage
from oddstui.api.models import Line, MarketQuote
from oddstui.book.oddsbook import OddsBook
from oddstui.tui.alerts.checks import check_price_rule, offered_from_book
from oddstui.tui.alerts.rules import PriceRule

OFFERED = {
    "ML": {None: {"home", "draw", "away"}},
    "Totals": {2.5: {"over", "under"}, 3.5: {"over", "under"}},
    "Spread": {-1.5: {"home", "away"}},
}


@pytest.mark.parametrize(
    ("rule", "reason"),
    [
        (PriceRule(1, "Double Chance", "home", 2.0), "no market 'Double Chance': it offers ML"),
        (PriceRule(1, "Totals", "home", 2.0, hdp=2.5), "Totals has no side 'home': use over"),
        (PriceRule(1, "Totals", "over", 2.0), "Totals needs a line, one of 2.5, 3.5"),
        (PriceRule(1, "Totals", "over", 2.0, hdp=9.5), "no line 9.5 here: lines are 2.5, 3.5"),
        (PriceRule(1, "Spread", "home", 2.0, hdp=1.5), "no line +1.5 here: lines are -1.5"),
        (PriceRule(1, "ML", "home", 2.0, hdp=0.5), "ML has no lines here: leave the line blank"),
        (PriceRule(1, "ML", "yes", 2.0), "ML has no side 'yes': use away, draw, home"),
    ],
)
def test_a_rule_on_what_the_event_lacks_is_refused_with_what_it_offers(
    rule: PriceRule, reason: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(reason)):
        check_price_rule(rule, OFFERED)


def test_a_good_rule_takes_the_events_spelling() -> None:
    checked = check_price_rule(PriceRule(1, "totals", " Over", 1.9, hdp=2.5), OFFERED)
    assert checked == PriceRule(1, "Totals", "over", 1.9, hdp=2.5)
    with pytest.raises(ValueError, match="no prices yet"):
        check_price_rule(checked, {})


def test_what_the_book_offers_leaves_player_lines_out() -> None:
    book = OddsBook()
    markets = (
        MarketQuote("ML", None, (Line(None, None, {"home": 2.0, "away": 1.8}, None),)),
        MarketQuote("Player Props", None, (Line(0.5, "Kane", {"over": 2.0}, None),)),
    )
    book.apply(OddsMessage("created", 1, None, 7, "Bet365", None, markets, received=0.0))
    assert offered_from_book(book, 7) == {"ML": {None: {"home", "away"}}}
    assert offered_from_book(book, 8) == {}

"""Is a price rule about something the event really offers? No textual here.

A rule on a market or side the event never quotes (Double Chance, side `home` on Totals) would
sit silent forever, so it is refused, with what the event does offer. What an event offers is
read from the feed's book or from one GET /odds answer: market -> line -> sides. Lines that
belong to a player (labelled lines) are left out: a price rule names no player.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from oddstui.api.models import OddsRecord
from oddstui.book.oddsbook import OddsBook
from oddstui.tui.alerts.rules import PriceRule
from oddstui.tui.kit.leg_words import line_text

#: market name -> hdp (None for a market without lines) -> the sides quoted on that line.
Offered = dict[str, dict[float | None, set[str]]]
#: At most this many names are listed in a refusal.
LISTED = 8
#: Markets named first when a refusal lists what the event offers.
MAIN_MARKETS = ("ML", "Spread", "Totals")


def offered_from_book(book: OddsBook, event_id: int) -> Offered:
    offered: Offered = {}
    for market in book.market_names(event_id):
        for hdp, label in book.lines(event_id, market):
            if label:
                continue
            sides: set[str] = set()
            for prices in book.quotes(event_id, market, (hdp, label)).values():
                sides.update(side for side, price in prices.items() if price is not None)
            if sides:
                offered.setdefault(market, {}).setdefault(hdp, set()).update(sides)
    return offered


def offered_from_record(record: OddsRecord) -> Offered:
    offered: Offered = {}
    for markets in record.bookmakers.values():
        for market in markets:
            for line in market.lines:
                if line.label or not line.prices:
                    continue
                sides = offered.setdefault(market.name, {}).setdefault(line.hdp, set())
                sides.update(line.prices)
    return offered


def _listed(names: Iterable[str]) -> str:
    names = list(names)
    shown = ", ".join(names[:LISTED])
    return shown + (f"… ({len(names)} in all)" if len(names) > LISTED else "")


def market_names(offered: Offered) -> list[str]:
    """The event's markets, the main ones (ML, Spread, Totals) first."""
    main = [name for name in MAIN_MARKETS if name in offered]
    return main + sorted(name for name in offered if name not in main)


def check_price_rule(rule: PriceRule, offered: Offered) -> PriceRule:
    """The rule with the market spelled as the event's, or ValueError saying what is wrong."""
    if not offered:
        raise ValueError("this event has no prices yet: no market can be checked")
    names = {name.casefold(): name for name in offered}
    market = names.get(rule.market.strip().casefold())
    if market is None:
        raise ValueError(
            f"this event has no market {rule.market!r}: it offers {_listed(market_names(offered))}"
        )
    lines = offered[market]
    if rule.hdp not in lines:
        shown = [line_text(market, hdp) for hdp in sorted(h for h in lines if h is not None)]
        if None in lines:
            raise ValueError(f"{market} has no lines here: leave the line blank")
        if rule.hdp is None:
            raise ValueError(f"{market} needs a line, one of {_listed(shown)}")
        raise ValueError(
            f"{market} has no line {line_text(market, rule.hdp)} here: lines are {_listed(shown)}"
        )
    sides = lines[rule.hdp]
    if rule.side.strip().casefold() not in sides:
        raise ValueError(f"{market} has no side {rule.side!r}: use {_listed(sorted(sides))}")
    return replace(rule, market=market, side=rule.side.strip().casefold())

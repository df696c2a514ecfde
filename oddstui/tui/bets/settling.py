"""Settle the open bets whose match has ended: results from the final score (`book.settlement`'s
`grade_leg`, the rule `/settlements/grade` answers by), and each leg's closing price at the sharp
book for its closing-line value. No textual here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import replace

from oddstui.api.errors import NotFound, OddsApiError
from oddstui.api.models import Event, OddsRecord
from oddstui.api.rest import ApiClient
from oddstui.betlog.bets import Bet, BetLeg
from oddstui.book.arbitrage import is_lay, sport_has_draw
from oddstui.book.fair_policy import FAIR_POLICY  # its first sharp book quoting a leg closes it
from oddstui.book.settlement import VOID, ScoreSheet, grade_leg
from oddstui.derived.value import line_fair_prices

ENDED = ("settled", "cancelled")


async def settle_open(api: ApiClient, bets: Sequence[Bet], now: float) -> list[Bet]:
    """The bets that changed: legs settled from the score (or void when the match was
    cancelled) and closing prices filled in, for every open bet whose match has ended."""
    waiting: dict[int, list[Bet]] = {}
    for bet in bets:
        if bet.id and bet.status == "open":
            waiting.setdefault(bet.event_id, []).append(bet)
    changed = []
    for event_id, group in waiting.items():
        try:
            event = await api.event(event_id)
        except NotFound:
            continue  # gone from the service: the trader settles it by hand
        if event.status not in ENDED:
            continue
        closing = await closing_record(api, event_id) if event.status == "settled" else None
        for bet in group:
            settled = settle_bet(bet, event, closing, now)
            if settled != bet:
                changed.append(settled)
    return changed


async def closing_record(api: ApiClient, event_id: int) -> OddsRecord | None:
    """The sharp books' closing prices, or None when the service has none for them."""
    try:
        return await api.historical_odds(event_id, FAIR_POLICY.books)
    except OddsApiError:
        return None


def settle_bet(bet: Bet, event: Event, closing: OddsRecord | None, now: float) -> Bet:
    """`bet` with what the ended `event` settles (legs already settled by hand are kept)."""
    scores = event.scores
    sheet = ScoreSheet(scores.home, scores.away, scores.periods)
    legs = []
    for leg in bet.legs:
        if leg.result is None:
            if event.status == "cancelled":
                leg = replace(leg, result=VOID, settled_by="score")
            else:
                grade = grade_leg(
                    event.sport.slug, leg.market, leg.hdp, leg.side, sheet, label=leg.label
                )
                result = grade.result
                if result is not None:
                    leg = replace(leg, result=result, settled_by="score")
        if leg.close_fair is None and closing is not None:
            leg = with_closing(leg, closing, sport_has_draw(event.sport.slug))
        legs.append(leg)
    settled = replace(bet, legs=tuple(legs), final_score=f"{scores.home}-{scores.away}")
    if settled.status == "settled" and settled.settled_at is None:
        settled = replace(settled, settled_at=now)
    return settled


def with_closing(leg: BetLeg, record: OddsRecord, has_draw: bool) -> BetLeg:
    """The leg with its line's closing price and fair price at the sharp book the fair-price
    rule takes (`derived.value.line_fair_prices`: the first quoting every side the market
    needs). With no such book, the first sharp book quoting the leg's side gives its closing
    price alone (no fair price from half a market)."""
    quotes = {}
    for book in FAIR_POLICY.books:
        prices = line_prices(record, book, leg.market, leg.hdp, leg.label)
        if prices is not None:
            quotes[book] = prices
    found = line_fair_prices(leg.market, has_draw, quotes)
    if found is not None and leg.side in found[1]:
        book, fair = found
        return replace(
            leg, close_price=quotes[book][leg.side], close_fair=fair[leg.side], sharp_book=book
        )
    for book, prices in quotes.items():
        if leg.side in prices:
            return replace(leg, close_price=prices[leg.side], sharp_book=book)
    return leg


def line_prices(
    record: OddsRecord, book: str, market: str, hdp: float | None, label: str
) -> dict[str, float] | None:
    """The back prices of every side of one line at one book, or None."""
    for quote in record.bookmakers.get(book, ()):
        if quote.name.casefold() != market.casefold():
            continue
        for line in quote.lines:
            if _same_hdp(line.hdp, hdp) and (line.label or "") == (label or ""):
                return {side: price for side, price in line.prices.items() if not is_lay(side)}
    return None


def _same_hdp(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, abs_tol=1e-9)


def settled_by_hand(bet: Bet, index: int, result: float | None, now: float) -> Bet:
    """The trader's result for one leg (None reopens it)."""
    leg = replace(bet.legs[index], result=result, settled_by="" if result is None else "hand")
    changed = bet.with_leg(index, leg)
    settled_at = (changed.settled_at or now) if changed.status == "settled" else None
    return replace(changed, settled_at=settled_at)


def open_events(bets: Iterable[Bet]) -> set[int]:
    return {bet.event_id for bet in bets if bet.status == "open"}

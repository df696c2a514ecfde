"""The items of GET /arbitrage-bets and /value-bets, for any source (without their `event`)."""

from __future__ import annotations

from typing import Any

from oddstui.book.arbitrage import Arbitrage
from oddstui.book.fair_policy import FairLine
from oddstui.server.item_text import (
    direct_link,
    item_id,
    market_reference,
    optimal_stakes,
    side_label,
)

TOTAL_STAKE = 100.0

Json = dict[str, Any]
LineId = tuple[str, float | None, str | None]  # (market, hdp, label)


def leg_body(
    line: LineId,
    side: str,
    bookmaker: str,
    names: tuple[str, str],
    odds: str,
    links: tuple[str, str],
    updated_at: str,
) -> Json:
    """One leg of an arbitrage: `names` are (home, away), `links` (fixture id, event page) and
    `odds` the price's text as the book shows it."""
    name, hdp, label = line
    fixture, href = links
    return {
        "bookmaker": bookmaker,
        "bookmakerFixtureId": fixture,
        "directLink": direct_link(href, name, hdp, label, side),
        "href": href,
        "label": side_label(names[0], names[1], name, side, hdp, label),
        "odds": odds,
        "side": side,
        # How old this leg's price is: a stale leg is the usual reason for a big arbitrage,
        # and it is the leg most likely to move before the bet is placed.
        "updatedAt": updated_at,
    }


def arbitrage_body(
    event_id: int, line: LineId, arb: Arbitrage, legs: list[Json], updated_at: str
) -> Json:
    name, hdp, label = line
    ident = "|".join(
        [str(event_id), name, repr(hdp), label or ""]
        + [f"{leg.side}@{leg.bookmaker}" for leg in arb.legs]
    )
    return {
        "id": item_id(ident),
        "eventId": event_id,
        "impliedProbability": round(arb.implied_probability, 6),
        "profitMargin": round(arb.profit_pct, 4),
        "totalStake": TOTAL_STAKE,
        "updatedAt": updated_at,
        "market": market_reference(name, hdp, label),
        "legs": legs,
        "optimalStakes": optimal_stakes(arb, TOTAL_STAKE),
    }


def value_body(
    event_id: int,
    line: LineId,
    bookmaker: str,
    bet: tuple[str, float],
    fair: tuple[tuple[str, ...], FairLine],
    quote: tuple[dict[str, str], float | None, str],
    href: str,
    ev_updated_at: str,
) -> Json:
    """A value bet: `bet` is (side, EV %), `fair` (the sides, their fair line) and `quote` the
    bookmaker's (price texts by side, its max stake, when it was quoted)."""
    name, hdp, label = line
    side, ev = bet
    sides, fair_line = fair
    texts, max_stake, quoted_at = quote
    odds: Json = {s: texts[s] for s in sides}
    if hdp is not None:
        odds["hdp"] = f"{hdp:g}"
    for s in sides:
        odds[f"{s}DirectLink"] = direct_link(href, name, hdp, label, s)
    odds["href"] = href
    # The quote's own age, apart from when the edge last changed: an old quote beside a fresh
    # fair price is a stale line, which a client may flag.
    odds["updatedAt"] = quoted_at
    reference = market_reference(name, hdp, label)
    for s, probability in zip(sides, fair_line.probabilities, strict=True):
        reference[s] = f"{1.0 / probability:.3f}"
    if max_stake is not None:
        reference["max"] = max_stake
    ident = f"{event_id}|{bookmaker}|{name}|{hdp!r}|{label or ''}|{side}"
    return {
        "id": item_id(ident),
        "eventId": event_id,
        "bookmaker": bookmaker,
        "betSide": side,
        "expectedValue": round(ev, 3),
        "expectedValueUpdatedAt": ev_updated_at,
        "bookmakerOdds": odds,
        "market": reference,
    }

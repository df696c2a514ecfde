"""Parts of the derived lists' items that any v3 source writes alike (the built-in service and a
replay): a leg's bet-slip link, what a side means in words, an arbitrage's optimal stakes."""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import quote

from oddstui.book.arbitrage import Arbitrage
from oddstui.book.dropping import DropFigures

NO_URL = "N/A"


def direct_link(href: str, market: str, hdp: float | None, label: str | None, side: str) -> str:
    """A bet-slip link under the event page: the page plus the selection as a fragment."""
    if href == NO_URL:
        return NO_URL
    parts = [market, "" if hdp is None else f"{hdp:g}", label or "", side]
    return f"{href}#bet={quote('/'.join(parts), safe='')}"


def side_label(
    home: str, away: str, market: str, side: str, hdp: float | None, label: str | None
) -> str:
    """What a side means in words: a team, Draw, Over 2.5, Yes..."""
    if side == "home":
        text = home
    elif side == "away":
        text = away
    else:
        text = side.capitalize()
    if hdp is not None:
        spread = "spread" in market.lower()
        shown = f"{hdp:+g}" if side in ("home", "away") and spread else f"{hdp:g}"
        if side == "away" and spread:
            shown = f"{-hdp:+g}"
        text = f"{text} {shown}"
    return f"{label} {text}" if label else text


def optimal_stakes(arb: Arbitrage, total: float) -> list[dict[str, Any]]:
    """`optimalStakes` of an arbitrage item: equal-return stakes of `total`, leg by leg."""
    payout = round(arb.potential_return(total), 6)
    return [
        {
            "bookmaker": leg.bookmaker,
            "side": leg.side,
            "stake": round(stake, 6),
            "potentialReturn": payout,
        }
        for leg, stake in zip(arb.legs, arb.stakes(total), strict=True)
    ]


def item_id(ident: str) -> str:
    """An item's `id`: a short hash of what makes it that item."""
    return hashlib.blake2s(ident.encode(), digest_size=8).hexdigest()


def market_reference(name: str, hdp: float | None, label: str | None) -> dict[str, Any]:
    """The `market` object of an item: its name, and its line when it has one."""
    market: dict[str, Any] = {"name": name}
    if hdp is not None:
        market["hdp"] = hdp
    if label is not None:
        market["label"] = label
    return market


def drop_item(
    event_id: int,
    market: dict[str, Any],
    side: str,
    figures: DropFigures,
    updated_at: float,
) -> dict[str, Any]:
    """A /dropping-odds item (without its `event`): times in Unix milliseconds."""
    drops = figures.drops
    moved = figures.last_moved
    return {
        "eventId": event_id,
        "market": market,
        "betSide": side,
        "odds": {
            "opening": figures.opening,
            "current": figures.current,
            "drop": {
                "sinceOpening": drops["opening"],
                "12h": drops["12h"],
                "24h": drops["24h"],
                "48h": drops["48h"],
            },
        },
        "lastMovedAt": None if moved is None else int(round(moved * 1000)),
        "updatedAt": int(round(updated_at * 1000)),
    }

"""Derived feeds' records: value bets, arbitrage bets and dropping odds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from oddstui.api.models.events import Named, parse_named
from oddstui.api.models.fields import (
    as_float,
    as_id_text,
    as_int,
    as_list,
    as_mapping,
    as_opt_float,
    as_opt_int,
    as_opt_str,
    as_opt_time,
    as_price,
    as_str,
    as_url,
    malformed,
)


@dataclass(frozen=True, slots=True)
class EventSummary:
    """The `event` object that derived feeds add with includeEventDetails=true."""

    home: str
    away: str
    date: datetime | None
    sport: Named | None
    league: Named | None


def parse_event_summary(value: Any) -> EventSummary | None:
    if value is None:
        return None
    raw = as_mapping(value, "event")
    sport = raw.get("sport")
    league = raw.get("league")
    return EventSummary(
        home=as_str(raw.get("home", ""), "event.home"),
        away=as_str(raw.get("away", ""), "event.away"),
        date=as_opt_time(raw.get("date"), "event.date"),
        sport=None if sport is None else parse_named(sport, "event.sport"),
        league=None if league is None else parse_named(league, "event.league"),
    )


@dataclass(frozen=True, slots=True)
class ValueBet:
    id: str
    event_id: int
    event: EventSummary | None
    bookmaker: str
    bet_side: str
    expected_value: float  # percent
    expected_value_updated_at: datetime | None
    bookmaker_prices: dict[str, float]  # the bookmaker's home/draw/away
    bookmaker_hdp: float | None
    direct_links: dict[str, str | None]  # side -> the bookmaker's bet-slip link
    href: str | None
    market_name: str
    market_hdp: float | None
    market_prices: dict[str, float]  # the reference (fair) home/draw/away
    market_max: float | None
    bookmaker_updated_at: datetime | None = None
    """When the bookmaker's quote last changed (`bookmakerOdds.updatedAt`), apart from the edge."""


_VALUE_SIDES = ("home", "draw", "away", "over", "under", "yes", "no")


def _side_prices(raw: Mapping[str, Any], what: str) -> dict[str, float]:
    prices: dict[str, float] = {}
    for side in _VALUE_SIDES:
        price = as_price(raw.get(side), f"{what}.{side}")
        if price is not None:
            prices[side] = price
    return prices


def parse_value_bet(value: Any) -> ValueBet:
    raw = as_mapping(value, "value bet")
    odds = as_mapping(raw.get("bookmakerOdds") or {}, "bookmakerOdds")
    market = as_mapping(raw.get("market") or {}, "market")
    links: dict[str, str | None] = {}
    for side in _VALUE_SIDES:
        link = odds.get(f"{side}DirectLink")
        if link is not None:
            links[side] = as_url(link)
    hdp = odds.get("hdp")
    return ValueBet(
        id=as_id_text(raw.get("id"), "valueBet.id"),
        event_id=as_int(raw.get("eventId"), "valueBet.eventId"),
        event=parse_event_summary(raw.get("event")),
        bookmaker=as_str(raw.get("bookmaker"), "valueBet.bookmaker"),
        bet_side=as_str(raw.get("betSide"), "valueBet.betSide"),
        expected_value=as_float(raw.get("expectedValue"), "valueBet.expectedValue"),
        expected_value_updated_at=as_opt_time(
            raw.get("expectedValueUpdatedAt"), "valueBet.expectedValueUpdatedAt"
        ),
        bookmaker_prices=_side_prices(odds, "bookmakerOdds"),
        bookmaker_hdp=None if hdp in (None, "") else as_float(hdp, "bookmakerOdds.hdp"),
        direct_links=links,
        href=as_url(odds.get("href")),
        market_name=as_str(market.get("name", ""), "market.name"),
        market_hdp=as_opt_float(market.get("hdp"), "market.hdp"),
        market_prices=_side_prices(market, "market"),
        market_max=as_opt_float(market.get("max"), "market.max"),
        bookmaker_updated_at=as_opt_time(odds.get("updatedAt"), "bookmakerOdds.updatedAt"),
    )


@dataclass(frozen=True, slots=True)
class ArbitrageLeg:
    bookmaker: str
    side: str
    label: str
    odds: float
    bookmaker_fixture_id: str | None
    direct_link: str | None
    href: str | None
    updated_at: datetime | None = None
    """When this leg's price was quoted: a stale leg is the usual reason for a large profit."""


@dataclass(frozen=True, slots=True)
class OptimalStake:
    bookmaker: str
    side: str
    stake: float
    potential_return: float


@dataclass(frozen=True, slots=True)
class ArbitrageBet:
    id: str
    event_id: int
    event: EventSummary | None
    implied_probability: float
    profit_margin: float  # percent
    total_stake: float
    updated_at: datetime | None
    market_name: str
    market_hdp: float | None
    legs: tuple[ArbitrageLeg, ...]
    optimal_stakes: tuple[OptimalStake, ...]
    market_label: str | None = None


def parse_arbitrage_bet(value: Any) -> ArbitrageBet:
    raw = as_mapping(value, "arbitrage bet")
    market = as_mapping(raw.get("market") or {}, "market")
    legs = []
    for leg_value in as_list(raw.get("legs"), "legs"):
        leg = as_mapping(leg_value, "leg")
        odds = as_price(leg.get("odds"), "leg.odds")
        if odds is None:
            raise malformed("leg.odds is not a price")
        fixture = leg.get("bookmakerFixtureId")
        legs.append(
            ArbitrageLeg(
                bookmaker=as_str(leg.get("bookmaker"), "leg.bookmaker"),
                side=as_str(leg.get("side", ""), "leg.side"),
                label=as_opt_str(leg.get("label"), "leg.label") or "",
                odds=odds,
                bookmaker_fixture_id=None if fixture is None else as_id_text(fixture, "leg.id"),
                direct_link=as_url(leg.get("directLink")),
                href=as_url(leg.get("href")),
                updated_at=as_opt_time(leg.get("updatedAt"), "leg.updatedAt"),
            )
        )
    stakes = []
    for stake_value in as_list(raw.get("optimalStakes"), "optimalStakes"):
        stake = as_mapping(stake_value, "optimalStake")
        stakes.append(
            OptimalStake(
                bookmaker=as_str(stake.get("bookmaker"), "optimalStake.bookmaker"),
                side=as_str(stake.get("side", ""), "optimalStake.side"),
                stake=as_float(stake.get("stake"), "optimalStake.stake"),
                potential_return=as_float(
                    stake.get("potentialReturn"), "optimalStake.potentialReturn"
                ),
            )
        )
    return ArbitrageBet(
        id=as_id_text(raw.get("id"), "arbitrage.id"),
        event_id=as_int(raw.get("eventId"), "arbitrage.eventId"),
        event=parse_event_summary(raw.get("event")),
        implied_probability=as_float(raw.get("impliedProbability"), "impliedProbability"),
        profit_margin=as_float(raw.get("profitMargin"), "profitMargin"),
        total_stake=as_float(raw.get("totalStake"), "totalStake"),
        updated_at=as_opt_time(raw.get("updatedAt"), "arbitrage.updatedAt"),
        market_name=as_str(market.get("name", ""), "market.name"),
        market_hdp=as_opt_float(market.get("hdp"), "market.hdp"),
        legs=tuple(legs),
        optimal_stakes=tuple(stakes),
        market_label=as_opt_str(market.get("label"), "market.label") or None,
    )


@dataclass(frozen=True, slots=True)
class DroppingOdds:
    event_id: int
    event: EventSummary | None
    market_name: str
    market_hdp: float | None
    market_label: str | None
    bet_side: str
    opening: float
    current: float
    drop_since_opening: float  # percent
    drop_12h: float | None
    drop_24h: float | None
    drop_48h: float | None
    last_moved_at_ms: int | None
    updated_at_ms: int


def parse_dropping_odds(value: Any) -> DroppingOdds:
    raw = as_mapping(value, "dropping odds")
    market = as_mapping(raw.get("market") or {}, "market")
    odds = as_mapping(raw.get("odds"), "odds")
    drop = as_mapping(odds.get("drop") or {}, "odds.drop")
    label = market.get("label")
    return DroppingOdds(
        event_id=as_int(raw.get("eventId"), "droppingOdds.eventId"),
        event=parse_event_summary(raw.get("event")),
        market_name=as_str(market.get("name", ""), "market.name"),
        market_hdp=as_opt_float(market.get("hdp"), "market.hdp"),
        market_label=None if label in (None, "") else str(label),
        bet_side=as_str(raw.get("betSide"), "betSide"),
        opening=as_float(odds.get("opening"), "odds.opening"),
        current=as_float(odds.get("current"), "odds.current"),
        drop_since_opening=as_float(drop.get("sinceOpening", 0), "drop.sinceOpening"),
        drop_12h=as_opt_float(drop.get("12h"), "drop.12h"),
        drop_24h=as_opt_float(drop.get("24h"), "drop.24h"),
        drop_48h=as_opt_float(drop.get("48h"), "drop.48h"),
        last_moved_at_ms=as_opt_int(raw.get("lastMovedAt"), "lastMovedAt"),
        updated_at_ms=as_int(raw.get("updatedAt"), "updatedAt"),
    )

"""The alert rules' file shape (`alerts.toml`): TOML tables to rules and back, without I/O.

The desk reads and writes the file (tui/alerts/store.py); `oddstui backtest` reads it too.
"""

from __future__ import annotations

import math
from typing import Any

from oddstui.book.alert_rules import ArbitrageRule, PriceRule, SteamRule
from oddstui.book.alert_watch import AlertRules


def rules_from_toml(raw: dict[str, Any]) -> AlertRules:
    """The rules of a parsed `alerts.toml`; ValueError says which rule is broken and why."""
    rules = AlertRules()
    for entry in _tables(raw, "price"):
        rules.add_price(_price_rule(entry))
    for entry in _tables(raw, "arbitrage"):
        rules.set_arbitrage(
            ArbitrageRule(_positive_int(entry.get("event")), _number(entry.get("min_profit")))
        )
    for entry in _tables(raw, "steam"):
        rules.set_steam(steam_rule(entry))
    return rules


def rules_to_toml(rules: AlertRules) -> dict[str, Any]:
    prices = []
    for rule in rules.prices:
        entry: dict[str, Any] = {
            "event": rule.event_id,
            "market": rule.market,
            "side": rule.side,
            "threshold": rule.threshold,
            "above": rule.above,
        }
        if rule.hdp is not None:
            entry["hdp"] = rule.hdp
        if rule.label:
            entry["label"] = rule.label
        prices.append(entry)
    arbs = [{"event": r.event_id, "min_profit": r.min_profit} for r in rules.arbitrages]
    steams = [
        {
            "event": r.event_id,
            "move_pct": r.move_pct,
            "within_s": r.within_s,
            "bookmakers": list(r.bookmakers),
            "market": r.market,
        }
        for r in rules.steams
    ]
    return {"price": prices, "arbitrage": arbs, "steam": steams}


def _tables(raw: dict[str, Any], name: str) -> list[dict[str, Any]]:
    entries = raw.get(name, [])
    if not isinstance(entries, list) or not all(isinstance(item, dict) for item in entries):
        raise ValueError(f"'{name}' must be an array of tables")
    return entries


def _price_rule(entry: dict[str, Any]) -> PriceRule:
    market, side, label = entry.get("market"), entry.get("side"), entry.get("label")
    above, hdp = entry.get("above", True), entry.get("hdp")
    if not isinstance(market, str) or not isinstance(side, str):
        raise ValueError("'market' and 'side' must be strings")
    if label is not None and not isinstance(label, str):
        raise ValueError("'label' must be a string")
    if not isinstance(above, bool):
        raise ValueError("'above' must be true or false")
    return PriceRule(
        event_id=_positive_int(entry.get("event")),
        market=market,
        side=side,
        threshold=_price(entry.get("threshold")),
        above=above,
        hdp=None if hdp is None else _number(hdp),
        label=label or None,
    )


def steam_rule(entry: dict[str, Any]) -> SteamRule:
    """`{event, move_pct, within_s, bookmakers = [...], market = "ML"}`."""
    books, market = entry.get("bookmakers", []), entry.get("market", "ML")
    if not isinstance(books, list) or not all(isinstance(book, str) for book in books):
        raise ValueError("'bookmakers' must be a list of names")
    if not isinstance(market, str) or not market.strip():
        raise ValueError("'market' must be a market name")
    move, within = _number(entry.get("move_pct")), _number(entry.get("within_s"))
    if not 0 < move < 100 or within <= 0:
        raise ValueError("'move_pct' must be above 0 and under 100, 'within_s' above 0")
    return SteamRule(_positive_int(entry.get("event")), move, within, tuple(books), market)


def _positive_int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError("'event' must be a positive event id")
    return value


def _number(value: Any) -> float:
    """A finite number from the file (a TOML integer may be too large for a float)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("a number was expected")
    try:
        number = float(value)
    except OverflowError:
        raise ValueError("a number is too large") from None
    if not math.isfinite(number):
        raise ValueError("a number must be finite")
    return number


def _price(value: Any) -> float:
    price = _number(value)
    if price <= 1.0:
        raise ValueError("'threshold' must be a decimal price above 1")
    return price

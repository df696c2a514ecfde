"""The alert rules on disk: `alerts.toml` next to the watchlist, written atomically."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import tomli_w

from oddstui import config
from oddstui.tui.alert_rules import AlertRules, ArbitrageRule, PriceRule


def rules_path(watchlist_path: Path) -> Path:
    """The rules live next to the watchlist they belong to."""
    return watchlist_path.with_name("alerts.toml")


def load_rules(path: Path) -> AlertRules:
    """The saved rules; a missing file is none, a broken one a `config.ConfigError`."""
    raw = config.read_toml(path)
    rules = AlertRules()
    try:
        for entry in raw.get("price", []):
            hdp = entry.get("hdp")
            rules.add_price(
                PriceRule(
                    event_id=_positive_int(entry["event"]),
                    market=str(entry["market"]),
                    side=str(entry["side"]),
                    threshold=_price(entry["threshold"]),
                    above=bool(entry.get("above", True)),
                    hdp=None if hdp is None else float(hdp),
                    label=entry.get("label") or None,
                )
            )
        for entry in raw.get("arbitrage", []):
            rules.set_arbitrage(
                ArbitrageRule(_positive_int(entry["event"]), float(entry["min_profit"]))
            )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise config.ConfigError(f"{path}: a broken alert rule ({error})") from None
    return rules


def save_rules(rules: AlertRules, path: Path) -> None:
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
    config.write_atomic(path, tomli_w.dumps({"price": prices, "arbitrage": arbs}).encode())


def _positive_int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{value!r} is not a positive event id")
    return value


def _price(value: Any) -> float:
    price = float(value)
    if not math.isfinite(price) or price <= 1.0:
        raise ValueError(f"{value!r} is not a decimal price above 1")
    return price

"""Watchlist alerts, pure (the desk and `oddstui backtest` run them): the trader's rules,
goals and status, and throttling.

Per starred event the trader is told of a score change (named as the sport scores: goal, run,
set, game...), a status change, and a price crossing a threshold they set. A price rule fires
once per crossing: the price must go back over the threshold before it fires again. A rule's
first observation is a baseline, never a firing: a price that already holds when the rule is
made (or when the desk starts) has crossed nothing.
Arbitrage, steam and match-moment rules are judged by `oddstui.book.alert_eval.fire`, the same
code a backtest runs. `Throttle` lets each alert through once and rate-limits bursts. Rules are
kept next to the watchlist (`alerts.toml`, see `store`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from oddstui.book.alert_rules import ENDED, ArbitrageRule, Firing, PriceRule, SteamRule
from oddstui.book.clean_text import clean
from oddstui.book.formats import format_price

__all__ = ["ENDED", "Alert", "AlertRules", "ArbitrageRule", "PriceRule", "SteamRule", "Throttle"]


@dataclass(frozen=True, slots=True)
class Alert:
    """One thing to tell the trader; `key` is what makes two alerts the same one."""

    key: tuple[Any, ...]
    event_id: int
    kind: str  # "goal", "status", "price", "arbitrage", "halftime", "fulltime", "redcard", "steam"
    title: str
    message: str
    rule: PriceRule | ArbitrageRule | SteamRule | None = None
    """The rule the trader set that fired (goals, status changes and match moments need none)."""
    price: float | None = None
    """The price (an arbitrage's profit, a steam move, in percent) that made it fire."""
    event: str = ""
    """The event's name."""

    @classmethod
    def of(cls, firing: Firing) -> Alert:
        """A firing of the book's rules, as the desk delivers it."""
        rule = firing.rule if isinstance(firing.rule, ArbitrageRule | SteamRule) else None
        title = KIND_TITLES.get(firing.kind, firing.kind.capitalize())
        return cls(
            (firing.kind, firing.rule, firing.key, firing.at),
            firing.event_id,
            firing.kind,
            title,
            clean(firing.message),
            rule,
            firing.value,
            clean(firing.event),
        )


TraderRule = PriceRule | ArbitrageRule | SteamRule
"""A rule the trader sets (goals, status changes and match moments of a starred event always
alert)."""

#: A toast's title per kind of alert.
KIND_TITLES = {
    "arbitrage": "Arbitrage",
    "price": "Price alert",
    "halftime": "Half-time",
    "fulltime": "Full-time",
    "redcard": "Red card",
    "steam": "Steam move",
}


@dataclass(slots=True)
class _Seen:
    status: str
    score: tuple[int, int] | None


@dataclass(slots=True)
class AlertRules:
    """The rules of the watched events and what was last observed of each."""

    prices: list[PriceRule] = field(default_factory=list)
    arbitrages: list[ArbitrageRule] = field(default_factory=list)
    steams: list[SteamRule] = field(default_factory=list)
    _seen: dict[int, _Seen] = field(default_factory=dict)
    _holding: dict[PriceRule, bool] = field(default_factory=dict)
    _crossings: dict[PriceRule, int] = field(default_factory=dict)

    # ------------------------------------------------------------------ rules

    def add_price(self, rule: PriceRule) -> None:
        """Add a rule; its first observation is its baseline."""
        if rule not in self.prices:
            self.prices.append(rule)

    def set_arbitrage(self, rule: ArbitrageRule) -> None:
        self.arbitrages = [r for r in self.arbitrages if r.event_id != rule.event_id] + [rule]

    def set_steam(self, rule: SteamRule) -> None:
        """One steam rule per event: a new one replaces the event's old one."""
        self.steams = [r for r in self.steams if r.event_id != rule.event_id] + [rule]

    def remove(self, rule: TraderRule) -> None:
        """Forget one rule (and what was observed of it)."""
        if isinstance(rule, PriceRule):
            self.prices = [r for r in self.prices if r != rule]
            self._holding.pop(rule, None)
        elif isinstance(rule, SteamRule):
            self.steams = [r for r in self.steams if r != rule]
        else:
            self.arbitrages = [r for r in self.arbitrages if r != rule]

    def replace(self, old: TraderRule, new: TraderRule) -> None:
        """An edited rule takes the old one's place in the list."""
        rules: list[Any] = (
            self.prices
            if isinstance(old, PriceRule)
            else self.steams
            if isinstance(old, SteamRule)
            else self.arbitrages
        )
        if type(old) is type(new) and old in rules:
            index = rules.index(old)
            rules[index] = new
            # An edit into a rule that exists already leaves one of it, in the edited place.
            for other in [i for i, rule in enumerate(rules) if rule == new and i != index][::-1]:
                del rules[other]
        else:
            self.remove(old)
            if isinstance(new, PriceRule):
                self.add_price(new)
            elif isinstance(new, SteamRule):
                self.set_steam(new)
            else:
                self.set_arbitrage(new)

    def all(self) -> list[TraderRule]:
        """Every rule: price rules first, in the order they were made, then arbitrage and
        steam rules."""
        return [*self.prices, *self.arbitrages, *self.steams]

    def remove_event(self, event_id: int) -> None:
        """Forget every rule of an event."""
        self.prices = [r for r in self.prices if r.event_id != event_id]
        self.arbitrages = [r for r in self.arbitrages if r.event_id != event_id]
        self.steams = [r for r in self.steams if r.event_id != event_id]

    def move_event(self, old: int, new: int) -> bool:
        """The rules of a watched match follow it to its new id; True when any moved."""
        moved = [r for r in self.prices if r.event_id == old]
        arbs = [r for r in self.arbitrages if r.event_id == old]
        self.prices = [replace(r, event_id=new) if r.event_id == old else r for r in self.prices]
        self.arbitrages = [
            replace(r, event_id=new) if r.event_id == old else r for r in self.arbitrages
        ]
        steams = [r for r in self.steams if r.event_id == old]
        self.steams = [replace(r, event_id=new) if r.event_id == old else r for r in self.steams]
        self._seen.pop(old, None)
        return bool(moved or arbs or steams)

    def rules_of(self, event_id: int) -> list[TraderRule]:
        return [rule for rule in self.all() if rule.event_id == event_id]

    # ------------------------------------------------------------------ observations

    def observe_event(
        self,
        event_id: int,
        title: str,
        status: str,
        score: tuple[int, int] | None,
        scoring: str = "goal",
    ) -> list[Alert]:
        """A watched event as it is now; the first sight of an event only sets its baseline.

        `score` is None when it is unknown or not trusted (after a reconnect); `scoring` is
        what the sport calls a score (goal, run, set, game...).
        """
        seen = self._seen.get(event_id)
        if seen is None:
            self._seen[event_id] = _Seen(status, score)
            return []
        alerts: list[Alert] = []
        name = clean(title)
        # An ended event does not come back: a live listing older than the feed's final
        # whistle may still say "live", and that is no news to tell.
        if status != seen.status and seen.status not in ENDED:
            alerts.append(
                Alert(
                    ("status", event_id, status),
                    event_id,
                    "status",
                    name,
                    f"{name}: {clean(seen.status)} → {clean(status)}",
                )
            )
            seen.status = status
        if score is not None:
            if seen.score is not None and sum(score) > sum(seen.score):
                home, away = score
                alerts.append(
                    Alert(
                        ("goal", event_id, home, away),
                        event_id,
                        "goal",
                        clean(scoring).capitalize(),
                        f"{clean(scoring).capitalize()}: {name} {home}–{away}",
                    )
                )
            seen.score = score
        return alerts

    def observe_price(
        self, rule: PriceRule, price: float | None, bookmaker: str = "", title: str = ""
    ) -> Alert | None:
        """The best price of the rule's side now (among the selected books, once the feed is
        live); fires when the condition starts to hold. `title` names the event.

        The first observation is a baseline: a price that already holds is no crossing.
        """
        if price is None or not math.isfinite(price):
            return None
        holds = rule.holds(price)
        before = self._holding.get(rule, holds)
        self._holding[rule] = holds
        if not holds or before:
            return None
        crossing = self._crossings.get(rule, 0) + 1
        self._crossings[rule] = crossing
        at = f" at {clean(bookmaker)}" if bookmaker else ""
        name = f"{clean(title)}: " if title else ""
        return Alert(
            ("price", rule, crossing),
            rule.event_id,
            "price",
            "Price alert",
            f"{name}{rule.describe()}: now {format_price(price)}{at}",
            rule,
            price,
        )

    def holding(self, rule: PriceRule) -> bool | None:
        """Whether the rule held at its last observation; None before the first."""
        return self._holding.get(rule)


class Throttle:
    """Each alert key passes once (within `remember` seconds); at most `burst` alerts pass at
    once, refilled at one per `every` seconds. Held-back alerts are counted for a summary."""

    def __init__(
        self,
        *,
        burst: int = 4,
        every: float = 5.0,
        remember: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._burst = burst
        self._every = every
        self._remember = remember
        self._clock = clock
        self._tokens = float(burst)
        self._stamp = clock()
        self._fired: dict[tuple[Any, ...], float] = {}
        #: Alerts held back by the rate limit since the last `take_held()`.
        self.held = 0

    def admit(self, alert: Alert) -> bool:
        now = self._clock()
        self._forget(now)
        if alert.key in self._fired:
            return False
        self._fired[alert.key] = now  # a held-back alert is not shown later either
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) / self._every)
        self._stamp = now
        if self._tokens < 1:
            self.held += 1
            return False
        self._tokens -= 1
        return True

    def take_held(self) -> int:
        held, self.held = self.held, 0
        return held

    def _forget(self, now: float) -> None:
        if len(self._fired) < 512:
            return
        self._fired = {k: t for k, t in self._fired.items() if now - t < self._remember}


def parse_threshold(text: str) -> float:
    """A threshold typed by the trader (decimal odds); ValueError says why it is refused."""
    try:
        value = float(text.strip())
    except ValueError:
        raise ValueError("the threshold must be a decimal price, e.g. 2.50") from None
    if not math.isfinite(value) or value <= 1.0:
        raise ValueError("the threshold must be a decimal price above 1")
    return value

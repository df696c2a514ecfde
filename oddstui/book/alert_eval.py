"""What a rule fires between two moments of one event: one pure function, `fire`.

`fire(rule, before, after)` compares two `MatchState`s of the rule's event and returns the
firings, one per crossing: a condition that starts to hold fires, one that goes on holding does
not, and it fires again only after it has stopped holding (re-armed). `before` None is the
first sight of the event: a baseline, nothing fires. `Cooldown` then keeps a rule quiet for a
while after it fired, whatever crosses; `advance_trails` keeps each price's recent path for
steam rules. The desk and `bt` (a backtest over recordings) run exactly this code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from oddstui.book.alert_rules import (
    MOMENT_WORDS,
    ArbitrageRule,
    Firing,
    MatchRule,
    MatchState,
    PriceKey,
    PriceRule,
    Rule,
    SteamRule,
    Trail,
    steam_floor,
)
from oddstui.book.formats import format_price

#: Seconds a rule stays quiet after it fired, by default.
COOL_DOWN = 30.0


def fire(rule: Rule, before: MatchState | None, after: MatchState) -> list[Firing]:
    """The firings of `rule` from `before` to `after` (the same event, later), each naming
    the event. Nothing fires at first sight (`before` None) nor for another event."""
    if before is None or after.event_id != rule.event_id or before.event_id != rule.event_id:
        return []
    if isinstance(rule, PriceRule):
        return _price(rule, before, after)
    if isinstance(rule, ArbitrageRule):
        return _arbitrage(rule, before, after)
    if isinstance(rule, MatchRule):
        return _moment(rule, before, after)
    return _steam(rule, before, after)


def best_price(rule: PriceRule, state: MatchState) -> tuple[float, str] | None:
    """The best price of the rule's side in `state`, and its bookmaker."""
    found = [
        (price, key[4])
        for key, price in state.prices.items()
        if key[:4] == (rule.market, rule.hdp, rule.label, rule.side)
    ]
    return max(found) if found else None


def _price(rule: PriceRule, before: MatchState, after: MatchState) -> list[Firing]:
    now = best_price(rule, after)
    if now is None or not rule.holds(now[0]):
        return []
    then = best_price(rule, before)
    if then is None or rule.holds(then[0]):
        return []  # first seen (a baseline, never a crossing), or still holding
    price, book = now
    message = f"{after.title}: {rule.describe()}: now {format_price(price)} at {book}"
    return [Firing(rule, rule.event_id, "price", after.title, message, after.at, (), price)]


def _arbitrage(rule: ArbitrageRule, before: MatchState, after: MatchState) -> list[Firing]:
    firings = []
    for (market, line), (profit, legs) in sorted(after.arbitrages.items(), key=_arb_order):
        if profit < rule.min_profit:
            continue
        held = before.arbitrages.get((market, line))
        if held is not None and held[0] >= rule.min_profit:
            continue  # the same arbitrage, still there: no news
        hdp = "" if line[0] is None else f" {line[0]:g}"
        shown = ", ".join(f"{side} {format_price(price)} {book}" for side, price, book in legs)
        message = f"{after.title}: {profit:.2f}% {market}{hdp}: {shown}"
        key = (market, line)
        firings.append(
            Firing(rule, rule.event_id, "arbitrage", after.title, message, after.at, key, profit)
        )
    return firings


def _arb_order(item: tuple[tuple[str, Any], tuple[float, Any]]) -> tuple[float, str]:
    (market, _), (profit, _) = item
    return (-profit, market)


def _moment(rule: MatchRule, before: MatchState, after: MatchState) -> list[Firing]:
    word = MOMENT_WORDS.get(rule.moment, rule.moment)
    score = "" if after.score is None else f" {after.score[0]}–{after.score[1]}"
    if rule.moment == "halftime":
        crossed = after.halftime and not before.halftime
    elif rule.moment == "fulltime":
        crossed = after.full_time and not before.full_time
    elif rule.moment == "redcard":
        crossed = _more_cards(before.red_cards, after.red_cards)
    else:
        return []
    if not crossed:
        return []
    if rule.moment == "redcard" and before.red_cards and after.red_cards:
        sides = [
            s
            for s, b, a in zip(("home", "away"), before.red_cards, after.red_cards, strict=True)
            if a > b
        ]
        word = f"{word} ({' and '.join(sides)})"
    message = f"{after.title}: {word.capitalize()}{score}"
    return [Firing(rule, rule.event_id, rule.moment, after.title, message, after.at)]


def _more_cards(before: tuple[int, int] | None, after: tuple[int, int] | None) -> bool:
    return before is not None and after is not None and sum(after) > sum(before)


def steam_move(trail: Trail, at: float, within_s: float) -> float:
    """The largest shortening in percent of the last price against any price that held within
    the last `within_s` seconds before `at` (the one that held at the window's start
    included): negative, or 0.0 when the price did not shorten (a lengthening is no steam)."""
    if not trail:
        return 0.0
    last = trail[-1][1]
    moves = [(last - price) / price * 100.0 for price in _held_within(trail, at, within_s)]
    return min(0.0, *moves)


def _held_within(trail: Trail, at: float, within_s: float) -> list[float]:
    """The prices that held at some moment of the window: those set in it, and the one set
    before it that still held at its start."""
    inside = [index for index, (stamp, _) in enumerate(trail) if at - stamp <= within_s]
    start = inside[0] - 1 if inside else len(trail) - 1
    return [price for _, price in trail[max(start, 0) :]]


def _steam(rule: SteamRule, before: MatchState, after: MatchState) -> list[Firing]:
    firings = []
    least = max(rule.move_pct, steam_floor(after.sport, after.status))
    for key in sorted(after.trails, key=str):
        market, hdp, label, side, book = key
        if market != rule.market or not rule.watches(book):
            continue
        move = steam_move(after.trails[key], after.at, rule.within_s)
        if -move < least:
            continue
        earlier = before.trails.get(key, ())
        if -steam_move(earlier, before.at, rule.within_s) >= least:
            continue  # the same move, still within the window
        line = "" if hdp is None else f" {hdp:g}"
        who = f" {label}" if label else ""
        first = _first_within(after.trails[key], after.at, rule.within_s)
        price = after.trails[key][-1][1]
        message = (
            f"{after.title}: steam {market}{line}{who} {side} at {book} "
            f"{format_price(first)} → {format_price(price)} ({move:+.1f}% in "
            f"{rule.within_s:g}s)"
        )
        firings.append(
            Firing(rule, rule.event_id, "steam", after.title, message, after.at, key, move)
        )
    return firings


def _first_within(trail: Trail, at: float, within_s: float) -> float:
    return _held_within(trail, at, within_s)[0]


def advance_trails(
    trails: Mapping[PriceKey, Trail],
    prices: Mapping[PriceKey, float],
    at: float,
    keep_s: float,
) -> dict[PriceKey, Trail]:
    """Each price's path with `prices` seen at `at` appended (only when it changed), and the
    points older than `keep_s` seconds dropped, but for the one the window starts from. A key
    no longer priced keeps its path."""
    advanced: dict[PriceKey, Trail] = {}
    for key in set(trails) | set(prices):
        trail = trails.get(key, ())
        price = prices.get(key)
        if price is not None and (not trail or trail[-1][1] != price):
            trail = (*trail, (at, price))
        # The last point before the window stays: it is the price the window starts from.
        inside = [i for i, (stamp, _) in enumerate(trail) if at - stamp <= keep_s]
        start = inside[0] - 1 if inside else len(trail) - 1
        kept = trail[max(start, 0) :]
        if kept:
            advanced[key] = kept
    return advanced


class Cooldown:
    """A rule that fired stays quiet for `seconds` (on the firings' own clock)."""

    def __init__(self, seconds: float = COOL_DOWN) -> None:
        self.seconds = seconds
        self._last: dict[Rule, float] = {}

    def admit(self, firings: Iterable[Firing]) -> list[Firing]:
        """The firings let through: per rule, the first, and none within the cool-down."""
        admitted = []
        for firing in firings:
            last = self._last.get(firing.rule)
            if last is not None and firing.at - last < self.seconds:
                continue
            self._last[firing.rule] = firing.at
            admitted.append(firing)
        return admitted

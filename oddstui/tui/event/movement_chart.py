"""The price history of bookmakers' market and line: each side's prices against time, the
opening and current price and the move in percent and in exchange ticks.

`side_moves()` and `time_ticks()` are pure (they read `api.models.Movements`); `PriceHistory`
(widgets/price_history.py) draws them. `MovementCache` fetches GET /odds/movements on demand,
keeps answers for a while, and refuses when the hourly request budget runs low.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from weakref import WeakKeyDictionary

from rich.text import Text

from oddstui.api.models import Movements
from oddstui.api.rest import ApiClient
from oddstui.book.formats import OddsFormat, format_price
from oddstui.book.ticks import MIN_TICK_PRICE, ticks_between

#: How long a fetched history is shown again without a new request, in seconds.
CACHE_SECONDS = 30.0
#: Below this many requests left this hour, histories are not fetched.
BUDGET_FLOOR = 100


class BudgetLow(Exception):
    """Too few requests left this hour to spend one on a chart."""


@dataclass(frozen=True, slots=True)
class SideMove:
    """One side's history: prices oldest first with their times (Unix seconds), and the move
    from opening to now."""

    side: str
    prices: tuple[float, ...]
    opening: float
    current: float
    times: tuple[float, ...] = ()

    @property
    def percent(self) -> float:
        return (self.current / self.opening - 1.0) * 100.0

    @property
    def ticks(self) -> float | None:
        if min(self.opening, self.current) < MIN_TICK_PRICE:
            return None
        return ticks_between(self.opening, self.current)


def side_moves(movements: Movements, sides: Sequence[str]) -> list[SideMove]:
    """Each side's prices from the opening tick through every movement (sides without any price
    are left out); `sides` gives the order, sides the history adds come after."""
    ticks = ([movements.opening] if movements.opening is not None else []) + list(movements.ticks)
    ticks.sort(key=lambda tick: tick.timestamp_ms)
    named = [_named(tick.prices, sides) for tick in ticks]
    order = list(sides) + sorted({s for prices in named for s in prices} - set(sides))
    moves = []
    for side in order:
        quoted = [(t, prices) for t, prices in zip(ticks, named, strict=True) if side in prices]
        if quoted:
            history = tuple(prices[side] for _, prices in quoted)
            times = tuple(tick.timestamp_ms / 1000 for tick, _ in quoted)
            moves.append(SideMove(side, history, history[0], history[-1], times))
    return moves


def _named(prices: dict[str, float], sides: Sequence[str]) -> dict[str, float]:
    """A tick's prices under the market's own side names: the public service may send a Totals
    tick as home/away (the first and second side) where the market says over/under."""
    if len(sides) != 2 or any(side in prices for side in sides):
        return prices
    if "home" not in prices or "away" not in prices or "draw" in prices:
        return prices
    first, second = sides
    return {first: prices["home"], second: prices["away"]}


def time_ticks(start: float, end: float, count: int = 5) -> tuple[list[float], list[str]]:
    """`count` evenly spaced times from `start` to `end` (Unix seconds) and their local labels:
    `14:05` within a day, `Sat 14:05` over longer spans."""
    if end <= start:
        end = start + 60.0
    step = (end - start) / max(count - 1, 1)
    positions = [start + step * index for index in range(count)]
    pattern = "%H:%M" if end - start < 86_400 else "%a %H:%M"
    return positions, [datetime.fromtimestamp(at).strftime(pattern) for at in positions]


def move_text(move: SideMove, fmt: OddsFormat = "decimal", last: str = "now") -> Text:
    """`open 2.10 → now 2.30  ▲+9.52%  +10 ticks` (`last`: "close" once the event is over)."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("open ", style="dim")
    text.append(format_price(move.opening, fmt))
    text.append(f" → {last} ", style="dim")
    text.append(format_price(move.current, fmt), style="bold")
    arrow = "" if move.current == move.opening else ("▲" if move.current > move.opening else "▼")
    text.append(f"  {arrow}{move.percent:+.2f}%", style="bold")
    ticks = move.ticks
    if ticks is not None:
        text.append(f"  {ticks:+.1f} ticks")
    return text


class MovementCache:
    """GET /odds/movements answers by (event, bookmaker, market, line), kept `CACHE_SECONDS`."""

    def __init__(self, api: ApiClient, clock: Callable[[], float] = time.monotonic) -> None:
        self._api = api
        self._clock = clock
        self._answers: dict[tuple[Any, ...], tuple[float, Movements]] = {}
        #: Requests sent (tests read it).
        self.fetches = 0

    async def get(self, event_id: int, bookmaker: str, market: str, hdp: float | None) -> Movements:
        key = (event_id, bookmaker, market, hdp)
        kept = self._answers.get(key)
        now = self._clock()
        if kept is not None and now - kept[0] < CACHE_SECONDS:
            return kept[1]
        remaining = self._api.budget.remaining
        if remaining is not None and remaining < BUDGET_FLOOR:
            raise BudgetLow(f"only {remaining} requests left this hour; the chart waits")
        answer: Movements = await self._api.odds_movements(
            event_id, bookmaker, market, market_line=hdp
        )
        self.fetches += 1
        self._answers[key] = (now, answer)
        return answer


_caches: WeakKeyDictionary[ApiClient, MovementCache] = WeakKeyDictionary()


def movement_cache(api: ApiClient) -> MovementCache:
    """The one cache of an `ApiClient` (made on first use)."""
    cache = _caches.get(api)
    if cache is None:
        cache = _caches[api] = MovementCache(api)
    return cache

"""The price history of one bookmaker's market and line: a sparkline per side, with the opening
and current price and the move in percent and in exchange ticks.

`side_moves()` is pure (it reads an `api.models.Movements`); `MovementChart` draws its result.
`MovementCache` fetches GET /odds/movements on demand, keeps answers for a while, and refuses
when the hourly request budget runs low.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Sparkline, Static

from oddstui.api.models import Movements
from oddstui.book.formats import OddsFormat, format_price
from oddstui.book.ticks import MIN_TICK_PRICE, ticks_between
from oddstui.tui.text import clean

#: How long a fetched history is shown again without a new request, in seconds.
CACHE_SECONDS = 30.0
#: Below this many requests left this hour, histories are not fetched.
BUDGET_FLOOR = 100


class BudgetLow(Exception):
    """Too few requests left this hour to spend one on a chart."""


@dataclass(frozen=True, slots=True)
class SideMove:
    """One side's history: prices oldest first, and the move from opening to now."""

    side: str
    prices: tuple[float, ...]
    opening: float
    current: float

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
        history = tuple(prices[side] for prices in named if side in prices)
        if history:
            moves.append(SideMove(side, history, history[0], history[-1]))
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


def move_text(move: SideMove, fmt: OddsFormat = "decimal") -> Text:
    """`open 2.10 → now 2.30  ▲+9.52%  +10 ticks`."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("open ", style="dim")
    text.append(format_price(move.opening, fmt, places=2))
    text.append(" → now ", style="dim")
    text.append(format_price(move.current, fmt, places=2), style="bold")
    arrow = "" if move.current == move.opening else ("▲" if move.current > move.opening else "▼")
    text.append(f"  {arrow}{move.percent:+.2f}%", style="bold")
    ticks = move.ticks
    if ticks is not None:
        text.append(f"  {ticks:+.1f} ticks")
    return text


class MovementCache:
    """GET /odds/movements answers by (event, bookmaker, market, line), kept `CACHE_SECONDS`."""

    def __init__(self, api: Any, clock: Callable[[], float] = time.monotonic) -> None:
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


_caches: WeakKeyDictionary[Any, MovementCache] = WeakKeyDictionary()


def movement_cache(api: Any) -> MovementCache:
    """The one cache of an `ApiClient` (made on first use)."""
    cache = _caches.get(api)
    if cache is None:
        cache = _caches[api] = MovementCache(api)
    return cache


class MovementChart(Vertical):
    """A sparkline and a move line per side."""

    DEFAULT_CSS = """
    MovementChart { height: auto; }
    MovementChart Sparkline { height: 3; }
    MovementChart .side-row { height: auto; margin-bottom: 1; }
    MovementChart .side-move { height: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", classes="chart-message")

    def show_message(self, message: str) -> None:
        self.remove_children(".side-row")
        message_widget = self.query_one(".chart-message", Static)
        message_widget.update(Text(message))
        message_widget.display = True

    def show(self, moves: list[SideMove], labels: dict[str, str], fmt: OddsFormat) -> None:
        self.remove_children(".side-row")
        if not moves:
            self.show_message("No price history for this bookmaker, market and line.")
            return
        self.query_one(".chart-message", Static).display = False
        rows = []
        for move in moves:
            label = Text(clean(labels.get(move.side, move.side)), style="bold")
            label.append(f"  {len(move.prices)} prices", style="dim")
            rows.append(
                Vertical(
                    Static(label, classes="side-label"),
                    Sparkline(list(move.prices), summary_function=max),
                    Static(move_text(move, fmt), classes="side-move"),
                    classes="side-row",
                )
            )
        self.mount_all(rows)

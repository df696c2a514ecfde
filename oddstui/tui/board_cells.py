"""Cell texts shared by the trading boards (arbitrage, value bets, dropping odds)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

from rich.text import Text

from oddstui.book.formats import ODDS_FORMATS, OddsFormat, format_price

VANISHED_STYLE = "dim strike"


def odds_format(app: object) -> OddsFormat:
    fmt = getattr(getattr(app, "settings", None), "odds_format", "decimal")
    return fmt if fmt in ODDS_FORMATS else "decimal"


def price_text(price: float | None, fmt: OddsFormat = "decimal") -> str:
    """A price as its bookmaker quotes it (`1.90`, `2.228`): the ticket and the grid agree."""
    return format_price(price, fmt)


def age_text(seconds: float | None, step: int = 1) -> Text:
    """`12s`, `4m`, `3h`, `2d`; `–` when unknown. Under a minute, whole `step`s of seconds (a
    board of hundreds of rows shows ages in 5 s steps, so they are not redrawn every second)."""
    if seconds is None:
        return Text("–", justify="right")
    seconds = max(seconds, 0.0)
    if seconds < 60:
        shown = f"{int(seconds) // step * step}s"
    elif seconds < 3600:
        shown = f"{seconds // 60:.0f}m"
    elif seconds < 86400:
        shown = f"{seconds // 3600:.0f}h"
    else:
        shown = f"{seconds // 86400:.0f}d"
    return Text(shown, justify="right")


def percent_text(value: float | None, *, signed: bool = True, style: str = "") -> Text:
    if value is None:
        return Text("–", justify="right")
    shown = f"{value:+.2f}%" if signed else f"{value:.2f}%"
    return Text(shown, style=style, justify="right")


def book_clock(hub: Any) -> Callable[[], float]:
    """The clock of the book's receive stamps (a test feed may supply a frozen one)."""
    clock: Any = getattr(hub.feed, "monotonic", None)
    return clock if callable(clock) else time.monotonic


@contextlib.contextmanager
def reading_book(hub: Any) -> Iterator[Any]:
    """The feed's book under its lock, or None when the app has no feed."""
    book, lock = hub.book, hub.book_lock
    if book is None:
        yield None
    elif lock is None:
        yield book
    else:
        with lock:
            yield book


def refresh_interval(
    budget: Any, base: float, *, reserve: int = 50, low_share: float = 0.2
) -> float | None:
    """Seconds until a board's next REST refresh: `base`, four times longer when less than
    `low_share` of the hourly budget is left, None (stop) below `reserve` requests."""
    remaining, limit = budget.remaining, budget.limit
    if remaining is None:
        return base
    if remaining < reserve:
        return None
    if limit and remaining < limit * low_share:
        return base * 4
    return base

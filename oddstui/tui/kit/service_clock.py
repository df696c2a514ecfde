"""The service's clock as the desk knows it: every age on the boards, the ticket, the alerts and
the exports counts against it (the Event grid's too), and the stale limits the settings give."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oddstui.book.oddsbook import OddsBook
    from oddstui.config import Settings
    from oddstui.tui.desk.hub import DeskHub


def book_clock(hub: DeskHub) -> Callable[[], float]:
    """The clock of the book's receive stamps (a test feed may supply a frozen one)."""
    clock: Any = getattr(hub.feed, "monotonic", None)
    return clock if callable(clock) else time.monotonic


def service_time(book: OddsBook | None, clock_now: float, wall_now: float) -> float:
    """The service's time now (epoch seconds), by the clock fitted to its feed messages
    (`clock_now` on the book's clock); the wall clock's until the feed has sent a stamp. Every
    age on the boards, the ticket and the exports counts against it, as the Event grid's do."""
    clock = None if book is None else book.service_clock
    found = None if clock is None else clock.now(clock_now)
    return wall_now if found is None else found


def hub_service_time(hub: DeskHub) -> float:
    """`service_time` of the hub's book now."""
    wall = hub.now()
    clock_now = book_clock(hub)()
    found = hub.read(lambda book: service_time(book, clock_now, wall))
    return wall if found is None else float(found)


def stale_after(settings: Settings, live: bool) -> float | None:
    """Seconds after which a price is stale: the settings' `stale_live` or `stale_prematch`."""
    value = getattr(settings, "stale_live" if live else "stale_prematch", None)
    return None if value is None else float(value)

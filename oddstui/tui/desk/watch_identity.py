"""Which match a watchlist entry names: its id, checked against what was saved with it.

An entry keeps id, sport, league, home, away and start. An id can come to name another match (a
new world of the built-in service, a provider that reissues ids): then the entry is re-matched
by the rest, or shown as gone; it is never moved to another match. Pure code.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from oddstui.config import WatchedEvent
from oddstui.tui.desk.state import EventView

#: Kick-offs this far apart (seconds) are still the same match (a rescheduled kick-off moves).
START_TOLERANCE = 6 * 3600.0


def _folded(text: str) -> str:
    return " ".join(text.split()).casefold()


def saved_start(item: WatchedEvent) -> datetime | None:
    try:
        return datetime.fromisoformat(item.start) if item.start else None
    except ValueError:
        return None


def same_match(item: WatchedEvent, event: EventView) -> bool:
    """The event is the one the entry was saved from (names, sport and kick-off agree).

    An entry saved without names (an old watchlist) trusts its id.
    """
    if not item.home and not item.away:
        return True
    if (_folded(item.home), _folded(item.away)) != (_folded(event.home), _folded(event.away)):
        return False
    if item.sport and _folded(item.sport) not in (
        _folded(event.sport_slug),
        _folded(event.sport_name),
    ):
        return False
    start = saved_start(item)
    if start is not None and event.start is not None:
        return abs((start - event.start).total_seconds()) <= START_TOLERANCE
    return True


def find_match(item: WatchedEvent, candidates: Iterable[EventView]) -> EventView | None:
    """The candidate that is the entry's match, the nearest kick-off first; None if none is."""
    start = saved_start(item)
    found = [event for event in candidates if same_match(item, event)]
    if not found:
        return None
    if start is None:
        return found[0]
    return min(
        found,
        key=lambda e: abs((e.start - start).total_seconds()) if e.start else START_TOLERANCE,
    )


def entry_of(event: EventView) -> WatchedEvent:
    """The entry saved when an event is starred."""
    return WatchedEvent(
        id=event.id,
        home=event.home,
        away=event.away,
        sport=event.sport_slug,
        league=event.league_name,
        start=event.start.isoformat() if event.start else "",
    )

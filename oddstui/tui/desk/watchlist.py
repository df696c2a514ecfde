"""The starred events: kept in `watchlist.toml`, each entry pinned to its match.

An entry whose id no longer names its match (see `identity`) is re-matched by sport, names and
kick-off, or kept as gone: shown with its saved names, never starred on another match, never
alerting. Pure code: the hub fetches, this decides.
"""

from __future__ import annotations

from pathlib import Path

from oddstui import config
from oddstui.config import WatchedEvent
from oddstui.tui.desk import watch_identity
from oddstui.tui.desk.state import EventView


class Watchlist:
    """The entries in the order they were starred, and which of them are gone."""

    def __init__(self, entries: list[WatchedEvent], path: Path | None) -> None:
        self.entries = list(entries)
        self.path = path
        #: Ids of entries whose match the service no longer has under that id, nor found again.
        self.gone: set[int] = set()
        #: Ids whose match was confirmed (by its id, or found again under a new one).
        self.confirmed: set[int] = set()

    def ids(self) -> set[int]:
        """The ids of the matches watched now (gone entries name no match)."""
        return {item.id for item in self.entries if item.id not in self.gone}

    def is_watched(self, event_id: int) -> bool:
        return event_id not in self.gone and any(item.id == event_id for item in self.entries)

    def entry(self, event_id: int) -> WatchedEvent | None:
        return next((item for item in self.entries if item.id == event_id), None)

    def toggle(self, event_id: int, event: EventView | None) -> bool:
        """Star or unstar an event and save; True when now starred. Starring the id of a gone
        entry replaces that entry (the trader chose this match)."""
        was = self.is_watched(event_id)
        self.entries = [item for item in self.entries if item.id != event_id]
        self.gone.discard(event_id)
        if not was:
            entry = watch_identity.entry_of(event) if event else WatchedEvent(id=event_id)
            self.entries.append(entry)
            self.confirmed.add(event_id)
        self.save()
        return not was

    def check(self, item: WatchedEvent, event: EventView | None) -> bool:
        """Does the event the id names now (None: the service has none) still match the entry?
        Records a confirmed entry; the caller searches for the others."""
        if event is not None and watch_identity.same_match(item, event):
            self.confirmed.add(item.id)
            self.gone.discard(item.id)
            return True
        return False

    def rematch(self, item: WatchedEvent, candidates: list[EventView]) -> int | None:
        """Find the entry's match among `candidates`: its new id (entry updated and saved), or
        None (the entry is gone)."""
        if not any(entry is item for entry in self.entries):
            return None  # already settled (two loads ran at once): nothing to do
        found = watch_identity.find_match(item, candidates)
        if found is None or (found.id != item.id and self.entry(found.id) is not None):
            self.gone.add(item.id)
            return None
        fresh = watch_identity.entry_of(found)
        self.entries = [fresh if entry is item else entry for entry in self.entries]
        self.gone.discard(item.id)
        self.confirmed.add(found.id)
        self.save()
        return found.id

    def save(self) -> None:
        config.save_watchlist(self.entries, self.path)

"""Which (event, bookmaker) pairs changed when: the index behind GET /odds/updated."""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable
from typing import Any

KEEP = 120.0  # simulated seconds of changes kept; /odds/updated looks back at most 90


class UpdatedIndex:
    def __init__(self) -> None:
        self._latest: defaultdict[str, dict[int, float]] = defaultdict(dict)  # bookie -> id -> ts
        self._order: deque[tuple[float, str, int]] = deque()

    def record(self, changes: Iterable[tuple[float, int, str]]) -> None:
        """Note changes as (simulated time, event id, bookie); called from the world's tick."""
        latest, order = self._latest, self._order
        newest = None
        for ts, event_id, bookie in changes:
            latest[bookie][event_id] = ts
            order.append((ts, bookie, event_id))
            newest = ts if newest is None or ts > newest else newest
        if newest is None:
            return
        cutoff = newest - KEEP
        while order and order[0][0] < cutoff:
            ts, bookie, event_id = order.popleft()
            per_book = latest.get(bookie)
            if per_book is not None and per_book.get(event_id) == ts:
                del per_book[event_id]

    def changed_since(self, bookie: str, since: float) -> list[int]:
        return [event_id for event_id, ts in self._latest.get(bookie, {}).items() if ts >= since]

    def on_entries(self, entries: Any) -> None:
        self.record((entry.timestamp, entry.event_id, entry.bookie) for entry in entries)

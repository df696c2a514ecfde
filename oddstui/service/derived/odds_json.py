"""JSON of odds records, reusing each (event, bookmaker) market list's encoding.

The world caches `markets_wire(event, bookie)` until that pair changes, so the same list object
comes back until then; its JSON is cached next to it (held by reference, so the identity check
is safe). A record for 30 bookmakers is then mostly joined from cached bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from oddstui.service.world.model import CANCELLED, SETTLED, Event

if TYPE_CHECKING:
    from oddstui.service.world import World

ENDED_STATUSES = (SETTLED, CANCELLED)
MAX_CACHED = 4096  # (event, bookmaker) encodings kept; cleared when full


def dumps(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


class OddsEncoder:
    def __init__(self, world: World) -> None:
        self.world = world
        self._cache: dict[tuple[int, str], tuple[Any, bytes]] = {}

    def record(self, event: Event, bookmakers: Iterable[str], closing: bool = False) -> bytes:
        """`world.odds_record(event, bookmakers)` as JSON bytes.

        A settled or cancelled event is no longer quoted: its record keeps the header (status,
        final scores) with no bookmakers, unless `closing` asks for its closing prices
        (GET /historical/odds). docs/trading.md, "Wire", says why.
        """
        if event.status in ENDED_STATUSES and not closing:
            bookmakers = ()
        record = self.world.odds_record(event, bookmakers)
        markets = record.pop("bookmakers")
        head = dumps(record)
        parts = [
            dumps(name) + b":" + self._markets(event.id, name, wire)
            for name, wire in markets.items()
        ]
        return head[:-1] + b',"bookmakers":{' + b",".join(parts) + b"}}"

    def records(self, events: Iterable[Event], bookmakers: list[str]) -> bytes:
        return b"[" + b",".join(self.record(event, bookmakers) for event in events) + b"]"

    def _markets(self, event_id: int, bookie: str, wire: Any) -> bytes:
        key = (event_id, bookie)
        cached = self._cache.get(key)
        if cached is not None and cached[0] is wire:
            return cached[1]
        encoded = dumps(wire)
        if len(self._cache) >= MAX_CACHED:
            self._cache.clear()
        self._cache[key] = (wire, encoded)
        return encoded

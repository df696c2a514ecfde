"""Event headers for a recording: which events it describes, and fetching the ones it lacks.

A recording describes the live events (at its start and at each refresh of the live list), but
its feed client also keeps the odds of other events it tracks: the desk's `--record` follows a
pending match whose Event screen is open, and a match kicks off between two refreshes. An odds
message names only an event id; without the event (sport, league, teams, kick-off) a replay can
neither list nor place it. So for each event recorded without a header, the recorder asks
`GET /events/{id}` once, a few per pass, and writes the answers as an events-only snapshot.
"""

from __future__ import annotations

import contextlib
from typing import Any

from oddstui.api.errors import OddsApiError
from oddstui.recording.raw_api import RawApi

PASS_EVERY = 2.0  # seconds between two passes
LOOKUPS_PER_PASS = 10  # GET /events/{id} requests a pass makes at most


class EventHeaders:
    def __init__(self) -> None:
        self.headed: set[int] = set()  # events a written snapshot describes
        self._asked: set[int] = set()  # looked up once (found or not): never asked again
        self._wanted: dict[int, None] = {}  # seen without a header, in order of first sight
        self.lookups = 0

    def written(self, events: list[Any]) -> None:
        """The events a snapshot just written lists."""
        for event in events:
            event_id = event.get("id") if isinstance(event, dict) else None
            if isinstance(event_id, int):
                self.headed.add(event_id)
                self._wanted.pop(event_id, None)

    def seen(self, event_id: int) -> None:
        """An odds message of `event_id` was recorded."""
        if event_id not in self.headed and event_id not in self._asked:
            self._wanted.setdefault(event_id)

    @property
    def missing(self) -> int:
        return len(self._wanted)

    async def fetch(self, api: RawApi) -> list[dict[str, Any]]:
        """The headers of events still without one (at most `LOOKUPS_PER_PASS`); a failed
        lookup leaves its event without, and is not tried again."""
        events: list[dict[str, Any]] = []
        asking = list(self._wanted)[:LOOKUPS_PER_PASS]
        for event_id in asking:
            self._asked.add(event_id)
            self.lookups += 1
            with contextlib.suppress(OddsApiError):
                event = await api.event_raw(event_id)
                if event is not None:
                    events.append(event)
        # Still `missing` while asked: they count as had once the caller writes the answers.
        for event_id in asking:
            self._wanted.pop(event_id, None)
        return events

"""The world's warm start: the quotes of live matches and of the soonest kick-offs opened
before anyone asks (all at once, or one event at a time while a server answers), and far-off
quotes nothing has moved put away again to keep memory flat."""

from __future__ import annotations

import bisect
import math
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from oddstui.service.world.model import PENDING, Event
from oddstui.service.world.state import OPEN_QUOTES_WITHIN, WorldState


class Warming(WorldState):
    if TYPE_CHECKING:

        def _reprice_all(self, event: Event, now: float, core_only: bool = False) -> None: ...

    def _put_away_cold(self) -> None:
        """Drop the quotes of far-off events that nothing has moved since they opened: they are
        a pure function of the seed and their opening time, so `_ensure_quotes` rebuilds them
        identically when someone looks. This keeps memory flat while new events keep coming."""
        candidates, self._cold_candidates = self._cold_candidates, []
        for event_id, opened_at in candidates:
            event = self.events[event_id]
            truth = self._quoter.truths.get(event_id)
            if truth is None or truth.version != 0 or event.status != PENDING:
                continue
            if event.start <= self._sim + OPEN_QUOTES_WITHIN or self.history.has_event(event_id):
                continue
            del self._quoter.truths[event_id]
            self._quoter.drop_event(event_id)
            for name in event.bookmakers:
                self._wire.pop((event_id, name), None)
            event.quotes.clear()
            self._cold[event_id] = opened_at

    def warm(self, budget: float = math.inf) -> None:
        """Open the quotes of every live event, then of the events kicking off soonest, for up
        to `budget` real seconds, so that the first request finds full boards (steps open the
        rest a few at a time)."""
        self._open_upcoming(self._sim, math.inf, budget)

    def warming(self, upcoming: int) -> Iterator[None]:
        """Open the quotes of every live event, then of the `upcoming` events kicking off
        soonest, one event at a time: yields between events, so that a server can answer (what
        needs no prices) meanwhile. A count, not a time: a loaded machine opens the same."""
        for event in list(self._live.values()):
            if event.id not in self._quoter.truths:
                self._ensure_quotes(event)
                yield
        for _ in range(upcoming):
            reached = self._opened_until
            self._open_upcoming(self._sim, 1)
            if self._opened_until == reached:
                return
            yield

    def _open_upcoming(self, now: float, limit: float, budget: float = math.inf) -> None:
        """Open the quotes of live events and of pending events that kick off soon: at most
        `limit` of them, for about `budget` real seconds at most (so that no one step pays for
        all of them)."""
        deadline = time.perf_counter() + budget
        opened = 0
        for event in self._live.values():
            if event.id not in self._quoter.truths:
                # Every live match opens whatever the budget (the budget is for the upcoming
                # ones): a loaded machine would otherwise start with thin boards, and opening
                # them later, outside a step, would bypass the derived indexes.
                if opened >= limit:
                    return
                self._ensure_quotes(event)
                opened += 1
        upcoming = self._upcoming
        i = bisect.bisect_right(upcoming, (max(self._opened_until, now), math.inf))
        while i < len(upcoming) and opened < limit and time.perf_counter() <= deadline:
            start, event_id = upcoming[i]
            if start > now + OPEN_QUOTES_WITHIN:
                break
            event = self.events[event_id]
            if event.status == PENDING:
                if event_id not in self._quoter.truths:
                    opened += 1
                truth = self._ensure_quotes(event)
                if truth.tier_cap < 3:
                    # Opened far off with the core markets only: the rest open now.
                    truth.tier_cap = 3
                    self._reprice_all(event, now)
            self._opened_until = start
            i += 1

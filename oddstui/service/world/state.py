"""What every part of the World shares: its state, and the few helpers all of them use.

The World is one object made of layers, each a file with one job: `state.py` (this), then
`prices.py` (price-making: books following moves, in-play books, suspensions), `lifecycle.py`
(events appearing, kicking off, being played, settling), `reads.py` (odds records, history
queries) and `world.py` (time, stepping, the journal and listeners). Each layer only calls the
ones before it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from oddstui.service.world.catalog import Catalog
from oddstui.service.world.copies import CopyQueue
from oddstui.service.world.engines.base import Engine
from oddstui.service.world.history import History
from oddstui.service.world.journal import Journal, JournalEntry
from oddstui.service.world.model import (
    PENDING,
    Bookmaker,
    Event,
    League,
    Participant,
    Sport,
)
from oddstui.service.world.quotes import Quoter
from oddstui.service.world.schedule import Fixture, Scheduler
from oddstui.service.world.sports import SPORT_BY_SLUG
from oddstui.service.world.truth import EventTruth

OPEN_QUOTES_WITHIN = 2 * 3600.0  # pending events this close get their quotes ahead of need


class WorldListener(Protocol):
    def on_odds(self, entries: list[JournalEntry]) -> None: ...
    def on_score(self, event: Event) -> None: ...
    def on_status(self, event: Event) -> None: ...


@dataclass(slots=True)
class EventMeta:
    z: float
    knockout: bool
    open_ts: float
    cancel_at: float | None
    #: When the world first quoted the event (its opening markets); None: not yet.
    quoted_at: float | None = None


class WorldState:
    """The World's attributes (set in `World.__init__`) and the helpers every layer uses."""

    seed: int
    speed: float
    updates_per_second: float
    start: float
    rng: random.Random
    sports: dict[str, Sport]
    leagues: dict[str, League]
    participants: dict[int, Participant]
    bookmakers: dict[str, Bookmaker]
    default_selection: list[str]
    events: dict[int, Event]
    journal: Journal
    history: History
    _catalog: Catalog
    _scheduler: Scheduler
    _quoter: Quoter
    _sim: float  # the time the world has been stepped to
    _meta: dict[int, EventMeta]
    _engines: dict[int, Engine]
    _live: dict[int, Event]
    _upcoming: list[tuple[float, int]]  # (start, id) of pending events, sorted
    _opened_until: float
    _cancels: list[tuple[float, int]]  # heap of (cancel_at, id)
    _due: dict[tuple[int, str], float]
    _due_heap: list[tuple[float, int, str]]  # pre-match follow-ups
    _due_live: list[tuple[float, int, str]]  # in-play follow-ups, served first
    _due_copies: list[tuple[float, int, str]]  # sisters copying their parent: before all else
    _copies: CopyQueue  # what each sister copies: its parent as of the change
    _suspended: dict[tuple[int, str], float]
    _next_decay: dict[int, float]
    _last_bump: dict[int, float]
    _reprice_gap: float  # simulated seconds between reprices of a live event
    _inplay: dict[int, list[str]]  # live event -> the books quoting in play
    _wire: dict[tuple[int, str], list[dict[str, Any]]]
    _budget: float
    _cold: dict[int, float]  # far-off events whose quotes were put away: opened at
    _cold_candidates: list[tuple[int, float]]
    _pool: tuple[float, list[Event], list[float]] | None
    _changed: dict[tuple[int, str], None]
    _created: set[tuple[int, str]]
    _score_changed: dict[int, Event]
    _transitions: list[Event]
    _transition_ids: set[int]

    def _touch(self, event_id: int, bookie: str) -> None:
        self._changed[(event_id, bookie)] = None
        self._wire.pop((event_id, bookie), None)

    def _transition(self, event: Event) -> None:
        self._transitions.append(event)
        self._transition_ids.add(event.id)

    def _quoting(self, event: Event) -> list[str]:
        """The books quoting the event now: all of them before kickoff, a subset in play."""
        inplay = self._inplay.get(event.id)
        return event.bookmakers if inplay is None else inplay

    def _rating(self, event: Event) -> float:
        spec = SPORT_BY_SLUG[event.sport.slug]
        return self._meta[event.id].z * spec.total**0.5

    def _truth(self, event: Event) -> EventTruth:
        players = self._catalog.players[event.home.id][:2] \
            + self._catalog.players[event.away.id][:2]
        # A props line is named by its player: two players drawn with one name would make two
        # lines on one (label, hdp), which no book quotes. The second keeps no props.
        players = list(dict.fromkeys(players))
        return self._quoter.truth_for(event, self._meta[event.id].z, players)

    def _ensure_quotes(self, event: Event) -> EventTruth:
        truth = self._quoter.truths.get(event.id)
        if truth is None:
            truth = self._truth(event)
            # A far-off event put away cold opens again exactly as it first did.
            opened_at = self._cold.pop(event.id, self._sim)
            self._meta[event.id].quoted_at = opened_at
            self._quoter.open_event(event, truth, opened_at, self._meta[event.id].open_ts,
                                    self._quoting(event))
            if event.status == PENDING and event.start > self._sim + OPEN_QUOTES_WITHIN:
                self._cold_candidates.append((event.id, opened_at))
        return truth

    def _make_event(self, fixture: Fixture) -> Event:
        event = Event(
            id=fixture.id, sport=self.sports[fixture.sport], league=self.leagues[fixture.league],
            home=self.participants[fixture.home], away=self.participants[fixture.away],
            start=fixture.start, bookmakers=self._scheduler.books(fixture),
        )
        self.events[fixture.id] = event
        self._meta[fixture.id] = EventMeta(fixture.z, fixture.league in self._catalog.knockout,
                                           fixture.open_ts, fixture.cancel_at)
        return event

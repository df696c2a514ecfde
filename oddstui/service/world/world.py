"""The World: catalog, events, match engines, prices, history, journal and listeners.

See the package docstring for the contract. Time: `now()` is simulated Unix seconds,
`start + (real elapsed) * speed + skew`; `advance(seconds)` adds skew and steps, which is how
tests drive matches fast and deterministically (with a frozen `real_clock`).
"""

from __future__ import annotations

import asyncio
import bisect
import gc
import heapq
import logging
import math
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from oddstui.service.world import journal as J
from oddstui.service.world.catalog import build_catalog
from oddstui.service.world.crests import CrestCache
from oddstui.service.world.engine_base import Engine
from oddstui.service.world.engines import make_engine
from oddstui.service.world.history import History, LineKey, Tick
from oddstui.service.world.journal import Journal, JournalEntry
from oddstui.service.world.markets import MARKETS_BY_SPORT, MarketDef
from oddstui.service.world.model import (
    CANCELLED,
    LIVE,
    PENDING,
    SETTLED,
    Bookmaker,
    Event,
    League,
    Market,
    Participant,
    Scores,
    Sport,
)
from oddstui.service.world.quotes import Quoter
from oddstui.service.world.schedule import Fixture, Scheduler
from oddstui.service.world.sports import SPORT_BY_SLUG, SportSpec
from oddstui.service.world.truth import EventTruth, LiveView, mix

log = logging.getLogger(__name__)

OPEN_QUOTES_WITHIN = 2 * 3600.0  # pending events this close get their quotes ahead of need
OPEN_PER_STEP = 1
DECAY_EVERY = 60.0  # simulated seconds between time-decay reprices of a live event
DEMAND_PER_SPEED = 25.0  # in-play follow-ups a live world wants per second, per unit of speed
MAX_MARKETS_PER_REQUOTE = 5
LOW_SCORING = 15.0  # sports with fewer expected points suspend their books after a score
PRE_MATCH_DRIFT, IN_PLAY_DRIFT = 0.05, 0.04  # sd of one move of a true line, in sd of margin
MATERIAL_SWING = 0.08  # a relative change of a core market's price that most books suspend for
LATE_IN_MATCH = 0.8  # share of the match played after which every score is material
DIRTY_BACKLOG_SECONDS = 2.0  # keep about this many seconds of follow-up work queued


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


@dataclass(slots=True)
class WindowPrices:
    """One line's prices for the dropping-odds windows (None: no data that far back)."""

    opening: Tick
    h12: Tick | None
    h24: Tick | None
    h48: Tick | None
    current: Tick
    last_moved_at: float | None


class World:
    def __init__(
        self, seed: int = 1, speed: float = 1.0, bookmakers: int = 265,
        updates_per_second: float = 50.0, replay_window: float = 600.0,
        start: float | None = None, real_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seed = seed
        self.speed = speed
        self.updates_per_second = updates_per_second
        self._real_clock = real_clock
        self._real0 = real_clock()
        self.start = time.time() if start is None else float(start)
        self._skew = 0.0
        self._sim = self.start  # the time the world has been stepped to
        self.rng = random.Random(mix(seed, 11))
        catalog = build_catalog(random.Random(mix(seed, 1)), bookmakers)
        self._catalog = catalog
        self.sports: dict[str, Sport] = catalog.sports
        self.leagues: dict[str, League] = catalog.leagues
        self.participants: dict[int, Participant] = catalog.participants
        self.bookmakers: dict[str, Bookmaker] = catalog.bookmakers
        self.default_selection: list[str] = catalog.default_selection
        self.events: dict[int, Event] = {}
        # Seqs start at the wall clock in microseconds, so a restarted service never reuses the
        # seqs of the one before it: a client resuming with an old cursor gets resync_required
        # instead of a replay that silently skips what it missed.
        first_seq = time.time_ns() // 1000
        self.journal = Journal(replay_window, real_clock=real_clock, first_seq=first_seq)
        self.history = History(seed)
        self._quoter = Quoter(seed, self.bookmakers, self.history)
        self._crests = CrestCache(seed)
        self._listeners: list[WorldListener] = []
        self._meta: dict[int, EventMeta] = {}
        self._engines: dict[int, Engine] = {}
        self._live: dict[int, Event] = {}
        # (start, id) of pending events, sorted; quotes are open for those up to _opened_until
        self._upcoming: list[tuple[float, int]] = []
        self._opened_until = self.start
        self._cancels: list[tuple[float, int]] = []  # heap of (cancel_at, id)
        self._opened_upto = 0  # how far through the start order quotes were opened
        self._due: dict[tuple[int, str], float] = {}
        self._due_heap: list[tuple[float, int, str]] = []  # pre-match follow-ups
        self._due_live: list[tuple[float, int, str]] = []  # in-play follow-ups, served first
        self._suspended: dict[tuple[int, str], float] = {}
        self._next_decay: dict[int, float] = {}
        self._last_bump: dict[int, float] = {}
        self._reprice_gap = 0.0  # simulated seconds between reprices of a live event
        self._inplay: dict[int, list[str]] = {}  # live event -> the books quoting in play
        self._wire: dict[tuple[int, str], list[dict[str, Any]]] = {}
        self._budget = 0.0
        self._cold: dict[int, float] = {}  # far-off events whose quotes were put away: opened at
        self._cold_candidates: list[tuple[int, float]] = []
        self._pool: tuple[float, list[Event], list[float]] | None = None
        # Per-step change sets, turned into journal entries and listener calls.
        self._changed: dict[tuple[int, str], None] = {}
        self._created: set[tuple[int, str]] = set()
        self._score_changed: dict[int, Event] = {}
        self._transitions: list[Event] = []
        self._transition_ids: set[int] = set()
        self._moved_this_step: set[int] = set()
        self._scheduler = Scheduler(catalog, seed, self.start)
        self._build_events()

    # -- clock ------------------------------------------------------------------------------
    def now(self) -> float:
        return self.start + (self._real_clock() - self._real0) * self.speed + self._skew

    # -- catalog helpers --------------------------------------------------------------------
    def crest_png(self, participant_id: int) -> bytes | None:
        participant = self.participants.get(participant_id)
        if participant is None or not participant.has_crest:
            return None
        return self._crests.get(participant_id)

    def live_events(self) -> list[Event]:
        return list(self._live.values())

    def quoted_events(self) -> list[Event]:
        """Pending and live events whose quotes exist (the ones value bets, arbitrage and
        dropping odds should scan)."""
        return [e for e in self.events.values()
                if e.status in (PENDING, LIVE) and e.id in self._quoter.truths]

    def market_types(self, sport: str | None = None) -> list[str]:
        if sport is not None:
            return [m.name for m in MARKETS_BY_SPORT[sport]]
        return sorted({m.name for ms in MARKETS_BY_SPORT.values() for m in ms})

    def engine(self, event_id: int) -> Engine | None:
        return self._engines.get(event_id)

    def open_ts(self, event_id: int) -> float:
        """When the event's quotes opened."""
        return self._meta[event_id].open_ts

    # -- building ---------------------------------------------------------------------------
    def _build_events(self) -> None:
        now = self.start
        for fixture in self._scheduler.initial():
            event = self._make_event(fixture)
            meta = self._meta[event.id]
            if fixture.start + self._scheduler.durations[fixture.sport] * 1.2 < now:
                if fixture.cancel_at is not None:
                    event.status = CANCELLED
                else:
                    event.scores = _final_scores(SPORT_BY_SLUG[fixture.sport],
                                                 mix(self.seed, event.id), self._rating(event),
                                                 meta.knockout)
                    event.status = SETTLED
                continue
            if fixture.start <= now:
                engine = self._start_engine(event)
                engine.advance(now - fixture.start)
                self._refresh_view(event, engine)
                if engine.finished:
                    event.status = SETTLED
                    del self._engines[event.id]
                    continue
                event.status = LIVE
                event.clock = engine.clock
                self._live[event.id] = event
                self._choose_inplay(event)
                continue
            self._upcoming.append((event.start, event.id))
            if fixture.cancel_at is not None:
                heapq.heappush(self._cancels, (fixture.cancel_at, event.id))
        self._upcoming.sort()
        # What building touched is the starting state, not a change.
        self._changed.clear()
        self._created.clear()

    def _make_event(self, fixture: Fixture) -> Event:
        event_id = self._scheduler.next_event_id()
        event = Event(
            id=event_id, sport=self.sports[fixture.sport], league=self.leagues[fixture.league],
            home=self.participants[fixture.home], away=self.participants[fixture.away],
            start=fixture.start, bookmakers=fixture.books,
        )
        self.events[event_id] = event
        self._meta[event_id] = EventMeta(fixture.z, fixture.league in self._catalog.knockout,
                                         fixture.open_ts, fixture.cancel_at)
        return event

    def _rating(self, event: Event) -> float:
        spec = SPORT_BY_SLUG[event.sport.slug]
        return self._meta[event.id].z * spec.total**0.5

    def _start_engine(self, event: Event) -> Engine:
        spec = SPORT_BY_SLUG[event.sport.slug]
        engine = make_engine(spec, mix(self.seed, event.id), event.scores, self._rating(event),
                             self._meta[event.id].knockout)
        self._engines[event.id] = engine
        self._quoter.views[event.id] = LiveView(spec, event.scores, live=True)
        self._refresh_view(event, engine)
        return engine

    def _refresh_view(self, event: Event, engine: Engine) -> None:
        view = self._quoter.views[event.id]
        view.progress = engine.progress
        view.in_overtime = engine.in_overtime or "ot" in event.scores.periods \
            or "ap" in event.scores.periods
        view.set_index = getattr(engine, "set_index", 1)

    def _truth(self, event: Event) -> EventTruth:
        players = self._catalog.players[event.home.id][:2] \
            + self._catalog.players[event.away.id][:2]
        return self._quoter.truth_for(event, self._meta[event.id].z, players)

    def _ensure_quotes(self, event: Event) -> EventTruth:
        truth = self._quoter.truths.get(event.id)
        if truth is None:
            truth = self._truth(event)
            # A far-off event put away cold opens again exactly as it first did.
            opened_at = self._cold.pop(event.id, self._sim)
            self._quoter.open_event(event, truth, opened_at, self._meta[event.id].open_ts,
                                    self._quoting(event))
            if event.status == PENDING and event.start > self._sim + OPEN_QUOTES_WITHIN:
                self._cold_candidates.append((event.id, opened_at))
        return truth

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

    def warm(self) -> None:
        """Open the quotes of every live event and every event kicking off soon, at once, so that
        the first request finds full boards (steps open them a few at a time)."""
        self._open_upcoming(self._sim, math.inf)

    def _open_upcoming(self, now: float, limit: float) -> None:
        """Open the quotes of live events and of pending events that kick off soon (a few per
        step, so that neither building the world nor any one step pays for all of them)."""
        opened = 0
        for event in self._live.values():
            if opened >= limit:
                return
            if event.id not in self._quoter.truths:
                self._ensure_quotes(event)
                opened += 1
        upcoming = self._upcoming
        i = bisect.bisect_right(upcoming, (max(self._opened_until, now), math.inf))
        while i < len(upcoming) and opened < limit:
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

    # -- reading odds ---------------------------------------------------------------------
    def markets_wire(self, event: Event, bookie: str) -> list[dict[str, Any]]:
        """Exactly `bookmakers[bookie]` of the event's odds record ([] when it has none)."""
        book = self.bookmakers.get(bookie)
        if book is None or bookie not in event.bookmakers:
            return []
        key = (event.id, bookie)
        if event.status in (SETTLED, CANCELLED):
            return self._quoter.closing_wire(event, self._truth(event), book)
        if key in self._suspended:
            return []
        cached = self._wire.get(key)
        if cached is not None:
            return cached
        self._ensure_quotes(event)
        wire = [m.to_wire(book.precision) for m in event.quotes.get(bookie, {}).values()]
        self._wire[key] = wire
        return wire

    def book_markets(self, event: Event, bookie: str) -> list[Market]:
        """The bookie's current Market objects on a pending or live event, in wire order (the
        same list `markets_wire` serializes; [] when suspended). Prefer this to reading
        `event.quotes`: far-off events keep their quotes put away until asked."""
        if bookie not in event.bookmakers or event.status not in (PENDING, LIVE):
            return []
        if (event.id, bookie) in self._suspended:
            return []
        self._ensure_quotes(event)
        return list(event.quotes.get(bookie, {}).values())

    def deep_link(self, event: Event, bookie: str) -> str:
        book = self.bookmakers[bookie]
        if not book.deep_links:
            return "N/A"
        return f"{book.site}/event/{event.id}?ref=oddstui"

    def bookmaker_event_id(self, event: Event, bookie: str) -> str:
        return str(100_000_000 + mix(self.seed, event.id, self.bookmakers[bookie].id) % 900_000_000)

    def odds_record(self, event: Event, bookmakers: Iterable[str]) -> dict[str, Any]:
        """The wire odds record restricted to these books (closing prices once settled)."""
        record = event.header_wire()
        books: dict[str, Any] = {}
        urls: dict[str, str] = {}
        ids: dict[str, str] = {}
        quoted = set(event.bookmakers)
        for name in bookmakers:
            if name not in quoted or name in books:
                continue
            markets = self.markets_wire(event, name)
            if not markets:
                continue
            books[name] = markets
            urls[name] = self.deep_link(event, name)
            ids[name] = self.bookmaker_event_id(event, name)
            if name == "Bet365":
                ids["Bet365_4"] = f"{ids[name]}-bot365"
        record["bookmakers"] = books
        record["bookmakerIds"] = ids
        record["urls"] = urls
        return record

    # Names other modules know these by.
    def bookie_url(self, event: Event, bookie: str) -> str:
        return self.deep_link(event, bookie)

    def bookie_fixture_id(self, event: Event, bookie: str) -> str:
        return self.bookmaker_event_id(event, bookie)

    # -- history --------------------------------------------------------------------------
    def movements(
        self, event_id: int, bookie: str, market: str, hdp: float | None = None,
        label: str | None = None,
    ) -> list[Tick] | None:
        """Every tick of one line, opening first; None when the line does not exist. Without
        `hdp`, the market's first line (its main line for single-line books) is used."""
        found = self._line(event_id, bookie, market, hdp, label)
        if found is None:
            return None
        key, current, precision = found
        event = self.events[event_id]
        return self.history.sequence(event_id, key, self._meta[event_id].open_ts, event.start,
                                     current, precision)

    def price_at(
        self, event_id: int, bookie: str, market: str, hdp: float | None, label: str | None,
        ts: float,
    ) -> Tick | None:
        ticks = self.movements(event_id, bookie, market, hdp, label)
        return History.price_at(ticks, ts) if ticks else None

    def line_window(
        self, event_id: int, bookie: str, market: str, hdp: float | None = None,
        label: str | None = None, now: float | None = None,
    ) -> WindowPrices | None:
        """Opening, 12h, 24h and 48h-ago and current prices of one line, in one call."""
        ticks = self.movements(event_id, bookie, market, hdp, label)
        if not ticks:
            return None
        at = self.now() if now is None else now
        moved = None
        for i in range(len(ticks) - 1, 0, -1):
            if ticks[i][1] != ticks[i - 1][1]:
                moved = ticks[i][0]
                break
        return WindowPrices(
            ticks[0], History.price_at(ticks, at - 12 * 3600), History.price_at(ticks, at - 86400),
            History.price_at(ticks, at - 2 * 86400), ticks[-1], moved,
        )

    def changed_since(
        self, ts: float, bookmakers: Iterable[str] | None = None
    ) -> list[JournalEntry]:
        """The latest journal entry per (event, bookie) at simulated time >= ts."""
        entries = self.journal.changed_since(ts)
        if bookmakers is None:
            return entries
        wanted = set(bookmakers)
        return [e for e in entries if e.bookie in wanted]

    def _line(
        self, event_id: int, bookie: str, market: str, hdp: float | None, label: str | None
    ) -> tuple[LineKey, Tick, int] | None:
        event = self.events.get(event_id)
        book = self.bookmakers.get(bookie)
        if event is None or book is None or bookie not in event.bookmakers:
            return None
        if event.status in (SETTLED, CANCELLED):
            for m in self.markets_wire(event, bookie):
                if m["name"] != market:
                    continue
                for entry in m["odds"]:
                    if _matches(entry.get("hdp"), entry.get("label"), hdp, label):
                        prices = {k: float(v) for k, v in entry.items()
                                  if k not in ("hdp", "label", "max")}
                        ts = event.start - 60.0
                        return (bookie, market, entry.get("hdp"), entry.get("label")), \
                            (ts, prices), book.precision
            return None
        self._ensure_quotes(event)
        quote = event.quotes.get(bookie, {}).get(market)
        if quote is None:
            return None
        for line in quote.lines:
            if _matches(line.hdp, line.label, hdp, label):
                return (bookie, market, line.hdp, line.label), (quote.updated_at, line.prices), \
                    book.precision
        return None

    # -- listeners --------------------------------------------------------------------------
    def subscribe(self, listener: WorldListener) -> None:
        self._listeners.append(listener)

    add_listener = subscribe

    def unsubscribe(self, listener: WorldListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    # -- evolution ------------------------------------------------------------------------
    @staticmethod
    def freeze_heap() -> None:
        """Tune the garbage collector for a long-running world (the service process).

        The world holds a few hundred thousand long-lived objects and makes many short-lived
        ones per step. Freezing what was built and collecting less often keeps the slowest steps
        near 30 ms instead of 100-300 ms (see benchmarks/world_step.py). Nothing in the world
        makes reference cycles, so their garbage is freed by reference counting anyway.
        """
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 50, 200)

    async def run(self, interval: float = 0.05) -> None:
        self.freeze_heap()
        while True:
            try:
                self.step()
            except Exception:  # the world must keep turning; the error is logged
                log.exception("world step failed")
            await asyncio.sleep(interval)

    def advance(self, seconds: float) -> list[JournalEntry]:
        """Move simulated time on by `seconds` (on top of real time) and step."""
        self._skew += seconds
        return self.step()

    def step(self) -> list[JournalEntry]:
        """Advance the world to `now()`; returns the new journal entries."""
        target = self.now()
        dt = target - self._sim
        if dt <= 0:
            return []
        self._sim = target
        self._put_away_cold()
        self._quoter.clear_step_cache()
        self._budget += self.updates_per_second * dt / self.speed
        self._add_new_events(target)
        self._cancel_due(target)
        kicked = self._kickoffs(target)
        self._play(target, dt, kicked)
        self._open_upcoming(target, OPEN_PER_STEP)
        self._resume_books(target)
        self._follow_ups(target)
        self._market_moves(target)
        self._jitter(target)
        entries = self._finish_step(target)
        # Lifecycle entries (created, deleted) are owed too; the debt is capped at 2 seconds.
        owed = sum(1 for e in entries if e.type in (J.CREATED, J.DELETED))
        self._budget = max(self._budget - owed, -2 * self.updates_per_second)
        return entries

    # -- lifecycle ----------------------------------------------------------------------------
    def _add_new_events(self, now: float) -> None:
        for fixture in self._scheduler.extend(now):
            event = self._make_event(fixture)
            bisect.insort(self._upcoming, (event.start, event.id))
            if fixture.cancel_at is not None:
                heapq.heappush(self._cancels, (fixture.cancel_at, event.id))
            self._ensure_quotes(event)
            self._transition(event)
            for name in event.bookmakers:
                self._created.add((event.id, name))
                self._touch(event.id, name)

    def _cancel_due(self, now: float) -> None:
        while self._cancels and self._cancels[0][0] <= now:
            _, event_id = heapq.heappop(self._cancels)
            event = self.events[event_id]
            if event.status != PENDING or event_id in self._transition_ids:
                continue
            event.status = CANCELLED
            self._transition(event)
            self._close_books(event)

    def _kickoffs(self, now: float) -> set[int]:
        kicked: set[int] = set()
        upcoming = self._upcoming
        due = 0
        while due < len(upcoming) and upcoming[due][0] <= now:
            due += 1
        ready = upcoming[:due]
        del upcoming[:due]
        for index, (_start, event_id) in enumerate(ready):
            event = self.events[event_id]
            if event.status != PENDING:
                continue
            if event_id in self._transition_ids:  # created this very step: kick off next step
                upcoming[:0] = ready[index:]
                break
            self._ensure_quotes(event)
            self._quoter.truths[event_id].tier_cap = 3
            engine = self._start_engine(event)
            engine.advance(now - event.start)
            self._refresh_view(event, engine)
            event.status = LIVE
            event.clock = engine.clock
            self._live[event_id] = event
            self._transition(event)
            kicked.add(event_id)
            self._choose_inplay(event)
            self._reprice_all(event, now)
        return kicked

    def _play(self, now: float, dt: float, kicked: set[int]) -> None:
        # How often a live event can be repriced, so that its in-play books keep up within
        # the update budget.
        pairs = sum(len(books) for books in self._inplay.values())
        self._reprice_gap = max(0.5, pairs / self.updates_per_second) * self.speed
        for event_id, event in list(self._live.items()):
            engine = self._engines[event_id]
            if event_id in kicked:
                changed = False
            else:
                changed = engine.advance(dt)
            if changed:
                self._score_changed[event_id] = event
            if engine.finished and event_id not in kicked:
                self._settle(event)
                continue
            event.clock = engine.clock
            # Prices follow the match in snapshots: at each score and every DECAY_EVERY
            # seconds, so that books differ by how late they follow, not by when they
            # happened to requote.
            if changed:
                self._after_score(event, now, engine)
            elif now >= self._next_decay.get(event_id, 0.0):
                self._next_decay[event_id] = now + max(DECAY_EVERY, self._reprice_gap)
                self._refresh_view(event, engine)
                self._reprice_all(event, now, core_only=True)

    def _settle(self, event: Event) -> None:
        event.status = SETTLED
        event.clock = None
        self._transition(event)
        del self._live[event.id]
        del self._engines[event.id]
        self._next_decay.pop(event.id, None)
        self._last_bump.pop(event.id, None)
        self._inplay.pop(event.id, None)
        self._close_books(event)
        self.history.drop_event(event.id)
        self._quoter.drop_event(event.id)
        event.quotes.clear()

    def _close_books(self, event: Event) -> None:
        for name in event.bookmakers:
            self._touch(event.id, name)
            self._due.pop((event.id, name), None)
            self._suspended.pop((event.id, name), None)

    # -- prices -----------------------------------------------------------------------------
    def _after_score(self, event: Event, now: float, engine: Engine) -> None:
        spec = SPORT_BY_SLUG[event.sport.slug]
        truth = self._quoter.truths.get(event.id)
        if truth is None:  # not opened yet; it will open at the current score
            return
        goal = spec.engine == "timed" and spec.total < LOW_SCORING
        last = self._last_bump.get(event.id, -math.inf)
        if not goal and now - last < self._reprice_gap:
            # Points come faster than the update budget can follow: reprice a little later.
            due = last + self._reprice_gap
            if self._next_decay.get(event.id, math.inf) > due:
                self._next_decay[event.id] = due
            return
        self._last_bump[event.id] = now
        before = self._core_probabilities(event)
        self._refresh_view(event, engine)
        truth.bump(None, [m.name for m in MARKETS_BY_SPORT[event.sport.slug]])
        after = self._core_probabilities(event)
        swing = _swing(before, after)
        # Books suspend after a goal, and after any point that swings the match (a set won,
        # any score late on): a book that kept quoting would offer a huge edge until it caught
        # up.
        # Those that do not suspend follow after their latency: the short-lived big edges.
        material = swing >= MATERIAL_SWING or engine.progress >= LATE_IN_MATCH
        suspend_share = 0.9 if material else 0.5 if goal else 0.0
        for name in self._quoting(event):
            book = self.bookmakers[name]
            if self._budget >= 2 and not book.sharp and self.rng.random() < suspend_share:
                delay = book.latency * self.rng.uniform(0.5, 1.5)
                self._suspended[(event.id, name)] = now + delay + 5.0
                self._wire.pop((event.id, name), None)
                self._touch(event.id, name)
                self._budget -= 2  # the suspension and the return
            else:
                self._follow(event.id, book, now)

    def _core_probabilities(self, event: Event) -> dict[tuple[str, float | None, str | None],
                                                         tuple[float, ...]]:
        """The true probabilities of every line of the core markets, by (market, hdp, label)."""
        out = {}
        for mdef in MARKETS_BY_SPORT[event.sport.slug]:
            if mdef.tier <= 1:
                for hdp, label, probs in self._quoter.lines_for(event, mdef, 0):
                    out[(mdef.name, hdp, label)] = probs
        return out

    def _reprice_all(self, event: Event, now: float, core_only: bool = False) -> None:
        truth = self._quoter.truths.get(event.id)
        if truth is None:
            return
        self._last_bump[event.id] = now
        truth.bump(None, [m.name for m in MARKETS_BY_SPORT[event.sport.slug]
                          if not core_only or m.tier <= 1])
        for name in self._quoting(event):
            self._follow(event.id, self.bookmakers[name], now)

    def _quoting(self, event: Event) -> list[str]:
        """The books quoting the event now: all of them before kickoff, a subset in play."""
        inplay = self._inplay.get(event.id)
        return event.bookmakers if inplay is None else inplay

    def _follow(self, event_id: int, book: Bookmaker, now: float) -> None:
        """Schedule a book to follow a move: sharp books at once and first, others after
        their latency (which is where stale quotes, value bets and arbitrage come from)."""
        if event_id in self._live:
            # In play everyone is quicker (and in-play work goes first, see _follow_ups).
            delay = 0.0 if book.sharp else (0.5 + 0.15 * book.latency) * self.rng.uniform(0.5, 1.5)
        else:
            delay = 0.0 if book.sharp else book.latency * self.rng.uniform(0.3, 1.6)
        self._schedule(event_id, book.name, now + delay)

    def _choose_inplay(self, event: Event) -> None:
        """Fewer books quote in play: sharp, exchange and big books mostly, others rarely.
        The rest show no markets until the event ends."""
        # When the update budget cannot follow a fast world, fewer books stay in play rather
        # than all of them going stale.
        capacity = min(1.0, self.updates_per_second / (DEMAND_PER_SPEED * self.speed))
        keep = []
        for name in event.bookmakers:
            book = self.bookmakers[name]
            share = 0.95 if book.tier >= 2 or book.margin < 0.03 else 0.3
            if book.sharp or mix(self.seed, event.id, book.id, 5) < share * capacity * 2**32:
                keep.append(name)
            else:
                if event.quotes.get(name):
                    self._touch(event.id, name)
                event.quotes[name] = {}
        self._inplay[event.id] = keep

    def _schedule(self, event_id: int, bookie: str, at: float) -> None:
        key = (event_id, bookie)
        current = self._due.get(key)
        if current is not None and current <= at:
            return
        self._due[key] = at
        heap = self._due_live if event_id in self._live else self._due_heap
        heapq.heappush(heap, (at, event_id, bookie))

    def _resume_books(self, now: float) -> None:
        if not self._suspended:
            return
        for key, at in list(self._suspended.items()):
            if at > now:
                continue
            del self._suspended[key]
            event = self.events[key[0]]
            if event.status not in (PENDING, LIVE):
                continue
            book = self.bookmakers[key[1]]
            self._requote(event, book, now, MAX_MARKETS_PER_REQUOTE * 3)
            self._touch(*key)

    def _follow_ups(self, now: float) -> None:
        self._follow_heap(self._due_live, now)
        self._follow_heap(self._due_heap, now)

    def _follow_heap(self, heap: list[tuple[float, int, str]], now: float) -> None:
        guard = int(self._budget * 3) + 10
        while heap and heap[0][0] <= now and self._budget >= 1 and guard > 0:
            guard -= 1
            at, event_id, bookie = heapq.heappop(heap)
            key = (event_id, bookie)
            if self._due.get(key) != at:
                continue
            del self._due[key]
            if key in self._suspended:
                continue
            event = self.events[event_id]
            if event.status not in (PENDING, LIVE):
                continue
            if self._requote(event, self.bookmakers[bookie], now, MAX_MARKETS_PER_REQUOTE):
                self._budget -= 1
            if self._quoter.dirty(event, self.bookmakers[bookie], 1):
                self._schedule(event_id, bookie, at + 1.0)  # more markets still to follow

    def _requote(self, event: Event, book: Bookmaker, now: float, limit: int) -> bool:
        self._ensure_quotes(event)
        inplay = self._inplay.get(event.id)
        if inplay is not None and book.name not in inplay:
            return False
        dirty = self._quoter.dirty(event, book, limit)
        if not dirty:
            return False
        if self._quoter.requote(event, book, dirty, now, self.rng):
            self._touch(event.id, book.name)
            return True
        return False

    def _active_pool(self, now: float) -> tuple[list[Event], list[float]]:
        if self._pool is not None and self._pool[0] == now:
            return self._pool[1], self._pool[2]
        events: list[Event] = []
        weights: list[float] = []
        total = 0.0
        for event in self._live.values():
            if event.id not in self._quoter.truths:
                continue
            total += 8.0
            events.append(event)
            weights.append(total)
        for start, event_id in self._upcoming[:120]:
            event = self.events[event_id]
            if event.status != PENDING or event_id not in self._quoter.truths:
                continue
            total += 2.0 if start - now < 6 * 3600 else 0.5
            events.append(event)
            weights.append(total)
        self._pool = (now, events, weights)
        return events, weights

    def _market_moves(self, now: float) -> None:
        """Random walks of the true prices, which books follow with their latency."""
        backlog = len(self._due)
        if backlog > self.updates_per_second * DIRTY_BACKLOG_SECONDS or self._budget < 1:
            return
        events, cum = self._active_pool(now)
        if not events:
            return
        moves = max(1, int(self._budget / 20))
        for event in self.rng.choices(events, cum_weights=cum, k=moves):
            truth = self._quoter.truths[event.id]
            defs = [m for m in MARKETS_BY_SPORT[event.sport.slug] if m.tier <= truth.tier_cap]
            picked = self.rng.sample(defs, min(len(defs), self.rng.randint(1, 3)))
            # In play, prices drift a little between scores; before the match, money moves
            # them more, and now and then a steamer moves a line a lot (slow books follow late).
            size = IN_PLAY_DRIFT if event.status == LIVE else PRE_MATCH_DRIFT
            if event.status != LIVE and self.rng.random() < 0.03:
                size *= 4
            for mdef in picked:
                truth.walk[mdef.name] = truth.walk.get(mdef.name, 0.0) * 0.98 \
                    + self.rng.gauss(0.0, size)
            truth.bump([m.name for m in picked], [])
            for name in self._quoting(event):
                self._follow(event.id, self.bookmakers[name], now)

    def _jitter(self, now: float) -> None:
        """Fill the rest of the budget with books nudging one of their prices."""
        if self._budget < 1:
            return
        events, cum = self._active_pool(now)
        if not events:
            return
        count = int(self._budget)
        for event in self.rng.choices(events, cum_weights=cum, k=count):
            books = self._quoting(event)
            if not books:
                continue
            name = self.rng.choice(books)
            if (event.id, name) in self._suspended:
                continue
            book = self.bookmakers[name]
            quotes = event.quotes.get(name)
            if not quotes:
                continue
            market = self.rng.choice(list(quotes))
            mdef = self._quoter.defs(event)[market]
            if self._quoter.requote(event, book, [mdef], now, self.rng):
                self._touch(event.id, name)
                self._budget -= 1

    def _transition(self, event: Event) -> None:
        self._transitions.append(event)
        self._transition_ids.add(event.id)

    def _touch(self, event_id: int, bookie: str) -> None:
        self._changed[(event_id, bookie)] = None
        self._wire.pop((event_id, bookie), None)

    # -- the end of a step ----------------------------------------------------------------
    def _finish_step(self, now: float) -> list[JournalEntry]:
        pairs = []
        for event_id, bookie in self._changed:
            event = self.events[event_id]
            if event.status in (SETTLED, CANCELLED):
                kind = J.DELETED
            elif (event_id, bookie) in self._created:
                kind = J.CREATED
            elif (event_id, bookie) in self._suspended or not event.quotes.get(bookie):
                kind = J.NO_MARKETS
            else:
                kind = J.UPDATED
            pairs.append((event_id, bookie, kind))
        entries = self.journal.append(pairs, now) if pairs else []
        scores = list(self._score_changed.values())
        transitions = list(self._transitions)
        self._changed.clear()
        self._created.clear()
        self._score_changed.clear()
        self._transitions.clear()
        self._transition_ids.clear()
        for listener in list(self._listeners):
            if entries:
                self._call(listener.on_odds, entries)
            for event in scores:
                self._call(listener.on_score, event)
            for event in transitions:
                self._call(listener.on_status, event)
        return entries

    @staticmethod
    def _call(method: Callable[[Any], None], arg: Any) -> None:
        try:
            method(arg)
        except Exception:
            log.exception("world listener failed")


_FINAL_SCORES: dict[tuple[str, int, float, bool], Scores] = {}


def _swing(before: dict[Any, tuple[float, ...]], after: dict[Any, tuple[float, ...]]) -> float:
    """The largest relative change of a true price between two sets of lines: the edge a book
    that has not yet followed would be offering."""
    swing = 0.0
    for key, now in after.items():
        was = before.get(key)
        if was is None or len(was) != len(now):
            continue
        for p_was, p_now in zip(was, now, strict=True):
            if p_now > 0.0:
                swing = max(swing, abs(p_was / p_now - 1.0))
    return swing


def _final_scores(spec: SportSpec, seed: int, rating: float, knockout: bool) -> Scores:
    """A played-out result, remembered per process (worlds built from one seed share them)."""
    key = (spec.slug, seed, rating, knockout)
    scores = _FINAL_SCORES.get(key)
    if scores is None:
        engine = make_engine(spec, seed, Scores(), rating, knockout)
        engine.play_out()
        scores = engine.scores
        if len(_FINAL_SCORES) > 50_000:
            _FINAL_SCORES.clear()
        _FINAL_SCORES[key] = scores
    return Scores(scores.home, scores.away, dict(scores.periods))


def _matches(line_hdp: float | None, line_label: str | None, hdp: float | None,
             label: str | None) -> bool:
    if hdp is not None and (line_hdp is None or abs(line_hdp - hdp) > 1e-9):
        return False
    return label is None or line_label == label


__all__ = ["World", "WorldListener", "WindowPrices", "EventMeta", "MarketDef", "Scores"]

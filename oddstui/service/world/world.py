"""The World: time, stepping, the journal and its listeners; see the package docstring.

Time: `now()` is simulated Unix seconds, `start + (real elapsed) * speed + skew`, and `start` is
the wall clock's now by default, so at `--speed 1` the world's now is the wall clock's. What is
in the world at a time depends only on the seed and that time (see lifecycle.py and
schedule.py). `advance(seconds)` adds skew and steps, which is how tests drive matches fast and
deterministically (with a frozen `real_clock`).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import math
import random
import time
from collections.abc import Callable
from typing import Any

from oddstui.service.world import journal as J
from oddstui.service.world.catalog import build_catalog
from oddstui.service.world.copies import CopyQueue
from oddstui.service.world.crests import CrestCache
from oddstui.service.world.history import History
from oddstui.service.world.journal import Journal, JournalEntry
from oddstui.service.world.lifecycle import Lifecycle
from oddstui.service.world.model import CANCELLED, SETTLED, Event
from oddstui.service.world.prices import PRE_MATCH_SHARE
from oddstui.service.world.quotes import Quoter
from oddstui.service.world.reads import Reads, WindowPrices
from oddstui.service.world.schedule import Scheduler, league_sizes
from oddstui.service.world.state import EventMeta, WorldListener
from oddstui.service.world.truth import mix

log = logging.getLogger(__name__)

OPEN_PER_STEP = 2  # events kicking off soon whose quotes a step opens
BACKFILL_PER_STEP = 0.02  # real seconds a step may spend laying out days in the background
# A step does at most this many real seconds' worth of updates. A machine slower than the asked
# rate then updates less, in short steps, instead of each late step owing more than the last
# (steps of several seconds, during which the feed and every request wait).
MOST_OWED_SECONDS = 0.25


class World(Lifecycle, Reads):
    def __init__(
        self, seed: int = 1, speed: float = 1.0, bookmakers: int = 265,
        updates_per_second: float = 50.0, replay_window: float = 600.0,
        start: float | None = None, real_clock: Callable[[], float] = time.monotonic,
        background: bool = False,
    ) -> None:
        """`background`: lay out only the hours around the start now and the rest of the
        world's days a little per step (the service, to be ready at once); otherwise all now."""
        self.seed = seed
        self.speed = speed
        self.updates_per_second = updates_per_second
        self._real_clock = real_clock
        self._real0 = real_clock()
        self.start = time.time() if start is None else float(start)
        self._skew = 0.0
        self._sim = self.start
        self.rng = random.Random(mix(seed, 11))
        catalog = build_catalog(random.Random(mix(seed, 1)), bookmakers, league_sizes())
        self._catalog = catalog
        self.sports = catalog.sports
        self.leagues = catalog.leagues
        self.participants = catalog.participants
        self.bookmakers = catalog.bookmakers
        self.default_selection = catalog.default_selection
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
        self._engines = {}
        self._live = {}
        self._upcoming = []
        self._opened_until = self.start
        self._cancels = []
        self._due = {}
        self._due_heap = []
        self._due_live = []
        self._due_copies = []
        self._copies = CopyQueue()
        self._suspended = {}
        self._unseen = {}
        self._ripe = {}
        self._follow_by = []
        self._follow_armed = set()
        self._prematch_keep = 0.0
        self._next_decay = {}
        self._last_bump = {}
        self._reprice_gap = 0.0
        self._inplay = {}
        self._wire = {}
        self._budget = 0.0
        self._cold = {}
        self._cold_candidates = []
        self._pool = None
        # Per-step change sets, turned into journal entries and listener calls.
        self._changed = {}
        self._created = set()
        self._score_changed = {}
        self._transitions = []
        self._transition_ids = set()
        self._scheduler = Scheduler(catalog, seed)
        self._next_forget = self.start + 3600.0
        self._lay_out(self.start)
        if not background:
            self._backfill(math.inf)

    # -- clock ------------------------------------------------------------------------------
    def now(self) -> float:
        return self.start + (self._real_clock() - self._real0) * self.speed + self._skew

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
        self._budget = min(self._budget + self.updates_per_second * dt / self.speed,
                           self.updates_per_second * MOST_OWED_SECONDS)
        self._prematch_keep = self._budget * PRE_MATCH_SHARE
        self._add_new_events(target)
        self._forget_past(target)
        self._cancel_due(target)
        kicked = self._kickoffs(target)
        self._play(target, dt, kicked)
        self._open_upcoming(target, OPEN_PER_STEP)
        self._resume_books(target)
        self._follow_ups(target)
        self._withdraw_unfollowed(target)
        self._market_moves(target)
        self._jitter(target)
        entries = self._finish_step(target)
        # Lifecycle entries (created, deleted) are owed too; the debt is capped at 2 seconds.
        owed = sum(1 for e in entries if e.type in (J.CREATED, J.DELETED))
        self._budget = max(self._budget - owed, -2 * self.updates_per_second)
        # Last, so that it never delays what this step tells its listeners.
        self._backfill(BACKFILL_PER_STEP)
        return entries

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


__all__ = ["World", "WorldListener", "WindowPrices", "EventMeta"]

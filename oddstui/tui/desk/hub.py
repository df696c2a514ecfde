"""The desk hub: the app's one connection to the service, and the board the screens read.

It is the only part of the TUI that talks to the service:
- REST (the catalog, event lists, live events and clocks) through one `ApiClient` (loads.py);
- the feed through one `Feed` (feed.py: its own thread, its book, its lock).
The book is the one store of scores and status: REST answers are merged into it, and the board
takes them from its change sets.

`flush()` takes the feed's change set, folds scores and status into the `Board`, and publishes
ONE `ChangeSet` through the `changed` signal. The feed wakes the hub at the first change after
each take: after a quiet spell it flushes at once (the leading edge); within an interval of the
last change set it flushes when that interval ends (coalescing: one change set per interval).
`tick()` publishes `ticked` once a second, for the clocks and ages.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from textual.dom import DOMNode
from textual.signal import Signal

from oddstui import config
from oddstui.api.pacing import RefreshSchedule
from oddstui.api.rest import ApiClient
from oddstui.book.oddsbook import OddsBook
from oddstui.book.state import FINISHED_STATUSES
from oddstui.tui.desk import wire_views
from oddstui.tui.desk.feed import Feed, FeedChanges
from oddstui.tui.desk.intel_watch import DeskIntel
from oddstui.tui.desk.rest_loads import RestLoads
from oddstui.tui.desk.rest_polls import FEED_LIVE_REFRESH, FEED_LIVE_SHARE, NOT_IN_PLAN, RestPolling
from oddstui.tui.desk.state import Board, ChangeSet, DeskStatus
from oddstui.tui.desk.watchlist import Watchlist

T = TypeVar("T")

#: How often live events (and their clocks) are refetched over REST, in seconds, while the
#: hourly budget is plentiful; at most LIVE_SHARE of what is left goes to it when it is not.
#: Without a feed (the plan has none) rest_polls.py sets both by the screen in front.
LIVE_REFRESH = FEED_LIVE_REFRESH
LIVE_SHARE = FEED_LIVE_SHARE
#: A kick-off the board has not listed asks for an early refetch: asks within KICKOFF_DEBOUNCE
#: seconds make one, never sooner than KICKOFF_GAP after the last (each used to cost one).
KICKOFF_DEBOUNCE, KICKOFF_GAP = 2.0, 10.0
#: Change sets published per second at most, normally and on a slow link. A price waits up to
#: one interval for its change set: at 12 a second (83 ms) its paint comes within 150 ms at the
#: 95th percentile under a steady stream (8 a second left it at 180 ms; benchmarks/tui_live.py).
FLUSH_HZ, SLOW_FLUSH_HZ = 12.0, 2.0
#: How long the start waits for the feed's handshake to say whether the plan has a feed.
FEED_VERDICT_WAIT = 5.0
#: How often the app flushes what did not come through the feed (REST loads, the catalog).
POLL_HZ = 5.0


class DeskHub(RestLoads, RestPolling):
    """Owns the board, the feed and the REST client; screens subscribe to its two signals.

    | attribute | what it is |
    |---|---|
    | `board` | everything the browsing screens show |
    | `feed` | the feed (None without one): the book's reads go through it |
    | `status` | the feed's health, for the status bar and banners |
    | `changed` | `Signal[ChangeSet]`, published at most once per flush interval |
    | `ticked` | `Signal[float]`, the local time once a second |
    | `watch` | starred events, persisted through `oddstui.config` |
    | `intel` | the session's bookmaker intelligence (`DeskIntel`) |
    """

    def __init__(
        self,
        owner: DOMNode,
        api: ApiClient,
        feed: Feed | None,
        *,
        now: Callable[[], float] = time.time,
        watchlist: list[config.WatchedEvent] | None = None,
        watchlist_path: Path | None = None,
    ) -> None:
        self.api = api
        self.feed = feed
        self.now = now
        self.board = Board(scores_from_book=feed is not None, clock_now=now)
        self.status = DeskStatus(state="connecting" if feed else "offline")
        self.changed: Signal[ChangeSet] = Signal(owner, "changed")
        self.ticked: Signal[float] = Signal(owner, "ticked")
        #: The starred events, each pinned to its match.
        self.watch = Watchlist(list(watchlist or []), watchlist_path)
        #: Watchlist entries found again under a new id (old -> new), for the alert rules.
        self.rematched: dict[int, int] = {}
        #: The last failure per load ("sports", "live", ("leagues", sport), ...), as plain text.
        self.errors: dict[Any, str] = {}
        #: True once the list of live events has been loaded at least once.
        self.live_loaded = False
        #: Seconds between two change sets at most (the settings' slow link lengthens it).
        self.interval = 1 / FLUSH_HZ
        #: The session's bookmaker intelligence, fed at each flush (the Books and Stale screens).
        self.intel = DeskIntel(resolution=self.interval)
        self._feed_dirty = False
        #: When the live events are refetched (paced by the budget, kick-offs debounced).
        self.live_schedule = RefreshSchedule(
            LIVE_REFRESH, min_gap=KICKOFF_GAP, debounce=KICKOFF_DEBOUNCE, share=LIVE_SHARE
        )
        #: Kick-offs seen on the feed before the live list had them (tests read it).
        self.unlisted_kickoffs = 0
        self._leagues_at: dict[str, float] = {}
        self.init_polling()
        self._unlisted: set[int] = set()
        self._last_publish = float("-inf")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._flush_timer: asyncio.TimerHandle | None = None
        self._loading: dict[Any, asyncio.Task[Any]] = {}
        #: How many change sets were published (tests and benchmarks read it).
        self.flushes = 0
        self.ticks = 0  # one-second ticks so far: what "a second went by" means to a screen

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Start the feed, then load the catalog and the live events."""
        if self.feed is not None:
            loop = self._loop = asyncio.get_running_loop()

            def wake() -> None:  # on the feed's thread
                try:
                    loop.call_soon_threadsafe(self.wake)
                except RuntimeError:
                    pass  # the app's loop has closed: nothing left to paint

            self.feed.on_change(wake)
            self.feed.start()
        await asyncio.gather(self.load_sports(), self.load_live())
        # The sports' league counts (34 requests, kept for the day): at once when the plan has
        # the feed; on a free plan (a third of its hour) only when the Sports screen asks.
        if await self._feed_in_plan():
            await self.load_sport_counts()

    async def _feed_in_plan(self) -> bool:
        """False once the feed was refused for the plan; waits up to FEED_VERDICT_WAIT seconds
        for the handshake's answer (a desk without a feed has nothing to wait for)."""
        if self.feed is None:
            return True
        waited = 0.0
        while self.feed.health().state == "connecting" and waited < FEED_VERDICT_WAIT:
            await asyncio.sleep(0.1)
            waited += 0.1
        return not self.feed_refused_for_plan()

    async def stop(self) -> None:
        if self.feed is not None:
            await asyncio.to_thread(self.feed.stop)
        # A load whose screen went away runs on by itself (`_once` shields it): stop it before
        # its client closes, or it fails unseen ("Task exception was never retrieved").
        for task in self._loading.values():
            task.cancel()
        await asyncio.gather(*self._loading.values(), return_exceptions=True)
        await self.api.aclose()

    def track(self, event_ids: list[int]) -> None:
        """Ask the feed to keep these events' odds (the Event screen calls it)."""
        if self.feed is not None:
            self.feed.track(event_ids)

    def reconnect(self) -> None:
        """After the feed was replaced: take it back (only ever on the trader's request)."""
        if self.feed is not None:
            self.feed.reconnect()

    def set_slow_link(self, slow: bool) -> None:
        self.interval = 1 / (SLOW_FLUSH_HZ if slow else FLUSH_HZ)

    # ------------------------------------------------------------------ flushing

    def wake(self) -> None:
        """A change arrived after the last take: flush now after a quiet spell (the leading
        edge), else when the interval since the last change set ends."""
        wait = self._last_publish + self.interval - time.monotonic()
        if wait <= 0 or self._loop is None:
            self.flush()
        elif self._flush_timer is None:
            self._flush_timer = self._loop.call_later(wait, self._timed_flush)

    def _timed_flush(self) -> None:
        self._flush_timer = None
        self.flush()

    def flush_due(self) -> None:
        """Flush if the last change set is at least one interval old (the app polls this for
        changes that do not come through the feed)."""
        if self._flush_timer is None and time.monotonic() - self._last_publish >= self.interval:
            self.flush()

    def flush(self) -> ChangeSet:
        """Fold in what the feed brought and publish one change set (if anything changed)."""
        prices: frozenset[Any] = frozenset()
        if self.feed is not None:
            taken = self.feed.take()
            self._fold(taken)
            prices = taken.prices
            if prices:
                with self.feed.reading() as book:
                    read = self.intel.read(book, prices) if book is not None else []
                self.intel.apply(read, self.now())  # the maths with the lock released
            self._refresh_status(self.feed)
        events, catalog = self.board.take_changes()
        changes = ChangeSet(events=events, catalog=catalog, feed=self._feed_dirty, prices=prices)
        self._feed_dirty = False
        if changes:
            self.flushes += 1
            self._last_publish = time.monotonic()
            self.changed.publish(changes)
        return changes

    def tick(self) -> float:
        now = self.now()
        if self.feed is not None:
            self._refresh_status(self.feed)
        self.ticks += 1
        self.ticked.publish(now)
        return now

    def live_refresh_due(self) -> bool:
        self.pace()
        return self.live_schedule.due(self.api.budget)

    # ------------------------------------------------------------------ the feed

    def _fold(self, taken: FeedChanges) -> None:
        """Scores and status, as the book holds them, onto the board's events."""
        board = self.board
        if taken.reconnected:
            # Scores and status are not replayed: none is current until refreshed.
            board.mark_scores_stale()
            self.live_schedule.ask()
        for change in taken.scores:
            if change.status is not None:
                if change.event_id not in board.events and change.status == "live":
                    self._unlisted_kickoff(change.event_id)
                board.set_status(change.event_id, change.status)
                if change.status in FINISHED_STATUSES:
                    self.intel.ended(change.event_id, self.now())
            scores = change.scores
            board.set_score(
                change.event_id, scores.home, scores.away, scores.periods, scores.red_cards
            )
            if change.clock is not None and self.feed is not None:
                # When it was sent, on the board's clock (the wall's) rather than the feed's.
                arrived = self.now() - max(self.feed.monotonic() - change.clock_received, 0.0)
                reading = wire_views.clock_reading(change.clock, arrived)
                if reading is not None:
                    board.set_feed_clock(change.event_id, reading)

    def _unlisted_kickoff(self, event_id: int) -> None:
        """A live status for an event the board does not know: only the next live listing can
        name it, so ask for one (debounced; its later scores ask again harmlessly)."""
        if event_id not in self._unlisted:
            self._unlisted.add(event_id)
            self.unlisted_kickoffs += 1
        self.live_schedule.ask()

    def _refresh_status(self, feed: Feed) -> None:
        health = feed.health()
        last_receive = None
        if health.last_receive is not None:
            last_receive = self.now() - max(feed.monotonic() - health.last_receive, 0.0)
        status = DeskStatus(
            state=health.state,
            last_seq=health.last_seq,
            last_receive=last_receive,
            requests_left=self.api.budget.remaining,
            detail=health.detail,
            relay=health.relay,
            replay=health.replay,
        )
        status = self._with_budget(status)
        shown = (status.state, status.detail, status.relay, status.budget_note)
        was = (self.status.state, self.status.detail, self.status.relay, self.status.budget_note)
        if shown != was:
            self._feed_dirty = True
        self.status = status

    def note_budget(self) -> None:
        status = self._with_budget(self.status)
        if status.detail != self.status.detail:
            self._feed_dirty = True
        self.status = status

    def _with_budget(self, status: DeskStatus) -> DeskStatus:
        """The status with the budget's count and note; without a feed (not in the plan), the
        words name the REST refresh and the data age is that of the last one."""
        budget = self.api.budget
        detail, note, last_receive = status.detail, "", status.last_receive
        if status.state == NOT_IN_PLAN:
            detail, last_receive = self.rest_words(budget), self.rest_at
        else:
            note = self.live_schedule.note(budget)
        return replace(
            status,
            requests_left=budget.remaining,
            detail=detail,
            budget_note=note,
            last_receive=last_receive,
        )

    # ------------------------------------------------------------------ reading the book

    def read(self, reader: Callable[[OddsBook], T]) -> T | None:
        """`reader(book)` under the feed's lock (None without a feed): copy figures out and
        format them after, so the feed's thread waits as little as possible."""
        if self.feed is None:
            return None
        with self.feed.reading() as book:
            return None if book is None else reader(book)

    def reading(self) -> AbstractContextManager[OddsBook | None]:
        """The book (or None) under the feed's lock while the block runs."""
        return self.feed.reading() if self.feed is not None else nullcontext(None)

    # ------------------------------------------------------------------ the watchlist

    @property
    def watchlist(self) -> list[config.WatchedEvent]:
        return self.watch.entries

    def is_watched(self, event_id: int) -> bool:
        return self.watch.is_watched(event_id)

    def toggle_watch(self, event_id: int) -> bool:
        """Star or unstar an event and save the watchlist; returns True when now starred."""
        starred = self.watch.toggle(event_id, self.board.events.get(event_id))
        self.board.touch(event_id)
        return starred

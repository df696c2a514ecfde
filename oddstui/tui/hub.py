"""The feed hub: the app's one connection to the service, and the board the screens read.

It is the only module of the TUI that talks to `oddstui.api` and `oddstui.book`:
- REST (the catalog, event lists, live events and clocks) through one `ApiClient`;
- the feed through one `FeedClient` on its own thread, so a slow terminal never slows the
  socket reader (FEED-CLIENT.md rule 16);
- a timer of the app calls `flush()` a few times a second: it drains what the feed brought,
  folds it into the `Board`, and publishes ONE `ChangeSet` through the `changed` signal;
- another app timer calls `tick()` once a second, publishing `ticked` for the match clocks.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from textual.dom import DOMNode
from textual.signal import Signal

from oddstui import config
from oddstui.api.errors import NotFound, OddsApiError
from oddstui.api.rest import ApiClient
from oddstui.tui import adapt, identity
from oddstui.tui.feed_port import FeedPort
from oddstui.tui.state import Board, ChangeSet, EventView, FeedStatus
from oddstui.tui.text import clean
from oddstui.tui.watchlist import Watchlist

#: How often live events (and their clocks) are refetched over REST, in seconds.
LIVE_REFRESH = 20.0
#: At most this many starred events are fetched one by one when the watchlist opens.
WATCH_FETCH_LIMIT = 50
#: How many sports have their league counts fetched at once.
CATALOG_CONCURRENCY = 6


class FeedHub:
    """Owns the board, the feed and the REST client; screens subscribe to its two signals.

    | attribute | what it is |
    |---|---|
    | `board` | everything the browsing screens show |
    | `status` | the feed's health, for the status bar and banners |
    | `changed` | `Signal[ChangeSet]`, published at most once per flush |
    | `ticked` | `Signal[float]`, the local time once a second |
    | `watchlist` | starred events, persisted through `oddstui.config` |
    """

    def __init__(
        self,
        owner: DOMNode,
        api: ApiClient,
        feed: FeedPort | None,
        *,
        now: Callable[[], float] = time.time,
        watchlist: list[config.WatchedEvent] | None = None,
        watchlist_path: Any = None,
    ) -> None:
        self.api = api
        self.feed = feed
        #: The feed's odds book (prices for the Event screen), read under `book_lock`.
        self.book = getattr(feed, "book", None)
        self.book_lock = getattr(feed, "lock", None)
        self._prices: set[tuple[int, str] | tuple[int, str, str]] = set()
        self.now = now
        self.board = Board()
        self.status = FeedStatus(state="connecting" if feed else "offline")
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
        self._feed_dirty = False
        self._last_live_fetch = 0.0
        self._loading: dict[Any, asyncio.Task[Any]] = {}
        #: How many change sets were published (tests and benchmarks read it).
        self.flushes = 0

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Load the catalog and the live events, then start the feed."""
        if self.feed is not None:
            self.feed.start()
        await asyncio.gather(self.load_sports(), self.load_live())
        await self.load_sport_counts()

    async def stop(self) -> None:
        if self.feed is not None:
            await asyncio.to_thread(self.feed.stop)
        await self.api.aclose()

    def track(self, event_ids: list[int]) -> None:
        """Ask the feed to keep these events' odds (the Event screen calls it)."""
        if self.feed is not None:
            self.feed.track(event_ids)

    def reconnect(self) -> None:
        """After the feed was replaced: take it back (only ever on the trader's request)."""
        if self.feed is not None:
            self.feed.reconnect()

    # ------------------------------------------------------------------ the two timers

    def flush(self) -> ChangeSet:
        """Fold in what the feed brought and publish one change set (if anything changed)."""
        if self.feed is not None:
            self._drain_feed(self.feed)
        events, catalog = self.board.take_changes()
        changes = ChangeSet(
            events=events, catalog=catalog, feed=self._feed_dirty, prices=frozenset(self._prices)
        )
        self._feed_dirty = False
        self._prices.clear()
        if changes:
            self.flushes += 1
            self.changed.publish(changes)
        return changes

    def tick(self) -> float:
        now = self.now()
        if self.feed is not None:
            self._refresh_status(self.feed)
        self.ticked.publish(now)
        return now

    def live_refresh_due(self) -> bool:
        return time.monotonic() - self._last_live_fetch >= LIVE_REFRESH

    # ------------------------------------------------------------------ the feed

    def _drain_feed(self, feed: FeedPort) -> None:
        for update in feed.drain():
            if update.kind == "score":
                scores = update.scores
                if scores is not None:
                    self.board.set_score(update.event_id, scores.home, scores.away, scores.periods)
            elif update.kind == "status":
                known = update.event_id in self.board.events
                if update.status is not None:
                    if not known and update.status == "live":
                        self._last_live_fetch = 0.0  # a kick-off we have not listed yet
                    self.board.set_status(update.event_id, update.status)
                if update.scores is not None:
                    s = update.scores
                    self.board.set_score(update.event_id, s.home, s.away, s.periods)
            elif update.kind == "odds" and update.key is not None and len(update.key) > 1:
                self._prices.add(update.key)
            elif update.kind == "reconnected":
                # Scores and status are not replayed: none is current until refreshed.
                self.board.mark_scores_stale()
                self._last_live_fetch = 0.0
        self._refresh_status(feed)

    def _refresh_status(self, feed: FeedPort) -> None:
        state, seq, received, detail = feed.health()
        last_receive = None
        if received is not None:
            last_receive = self.now() - max(time.monotonic() - received, 0.0)
        status = FeedStatus(
            state=state,
            last_seq=seq,
            last_receive=last_receive,
            requests_left=self.api.budget.remaining,
            detail=detail,
            relay=feed.relay(),
        )
        shown = (status.state, status.detail, status.relay)
        if shown != (self.status.state, self.status.detail, self.status.relay):
            self._feed_dirty = True
        self.status = status

    def note_budget(self) -> None:
        self.status = FeedStatus(
            state=self.status.state,
            last_seq=self.status.last_seq,
            last_receive=self.status.last_receive,
            requests_left=self.api.budget.remaining,
            detail=self.status.detail,
            relay=self.status.relay,
        )

    # ------------------------------------------------------------------ REST loads

    async def load_sports(self) -> None:
        sports = await self._once(("sports",), self.api.sports)
        self.board.set_sports([adapt.sport_view(sport) for sport in sports])

    async def load_sport_counts(self) -> None:
        """League event counts per sport, a few sports at a time (one request each)."""
        gate = asyncio.Semaphore(CATALOG_CONCURRENCY)

        async def one(slug: str) -> None:
            async with gate:
                try:
                    await self.load_leagues(slug)
                except OddsApiError:
                    pass  # the count stays unknown ("…"); the Leagues screen retries and says why

        await asyncio.gather(*(one(slug) for slug in list(self.board.sports)))

    async def load_leagues(self, sport: str) -> None:
        leagues = await self._once(("leagues", sport), lambda: self.api.leagues(sport))
        self.board.set_leagues(sport, [adapt.league_view(league, sport) for league in leagues])
        self.note_budget()

    async def load_events(self, sport: str, league: str | None) -> None:
        key = (sport, league or "")
        requested = time.monotonic()
        events = await self._once(
            ("events", key), lambda: self.api.events(sport, league=league, limit=500)
        )
        arrived = self.now()
        views = [adapt.event_view(event, arrived) for event in events]
        self.board.set_listing(key, views, requested)
        self.note_budget()

    async def load_live(self) -> None:
        self._last_live_fetch = requested = time.monotonic()
        events = await self._once(("live",), self.api.live_events)
        arrived = self.now()
        self.board.set_live([adapt.event_view(event, arrived) for event in events], requested)
        self.live_loaded = True
        if self.feed is not None:
            self.feed.scores_refreshed()
        self.note_budget()

    async def load_event(self, event_id: int) -> EventView:
        requested = time.monotonic()
        event = await self._once(("event", event_id), lambda: self.api.event(event_id))
        view = adapt.event_view(event, self.now())
        self.board.put_event(view, requested)
        self.note_budget()
        return view

    async def load_watched(self) -> None:
        """Make sure each starred entry still names its match: fetch it by id, and when the id
        now names another match (or none), find it again by sport, names and kick-off."""
        for item in list(self.watch.entries)[:WATCH_FETCH_LIMIT]:
            if item.id in self.watch.confirmed:
                continue
            event = self.board.events.get(item.id)
            if event is None or not identity.same_match(item, event):
                try:
                    event = await self.load_event(item.id)
                except NotFound:
                    event = None
                except OddsApiError:
                    continue  # unknown for now: shown with its saved names
            if self.watch.check(item, event):
                continue
            try:
                candidates = await self._candidates(item)
            except OddsApiError:
                continue
            found = self.watch.rematch(item, candidates)
            if found is not None and found != item.id:
                self.rematched[item.id] = found
                self.board.put_event(next(e for e in candidates if e.id == found))
        self.board.mark_catalog()

    async def _candidates(self, item: config.WatchedEvent) -> list[EventView]:
        """The events of the entry's sport that kick off near its saved start."""
        wanted = item.sport.strip().casefold()  # a slug; older entries kept the sport's name
        slug = next(
            (s.slug for s in self.board.sports.values() if wanted in (s.slug, s.name.casefold())),
            wanted,
        )
        start = identity.saved_start(item)
        if not slug or start is None:
            return []
        window = timedelta(seconds=identity.START_TOLERANCE)
        events = await self.api.events(slug, start=start - window, to=start + window, limit=5000)
        arrived = self.now()
        return [adapt.event_view(event, arrived) for event in events]

    async def _once(self, key: Any, fetch: Callable[[], Any]) -> Any:
        """Run one fetch per key at a time; a second caller waits for the first one's answer.

        A failure is kept in `errors[key]` (screens show it where the data would be) and
        raised, so the worker that asked reports it.
        """
        task = self._loading.get(key)
        if task is None or task.done():
            task = asyncio.ensure_future(fetch())
            self._loading[key] = task
        try:
            result = await asyncio.shield(task)
        except OddsApiError as error:
            self.errors[key] = clean(error)
            self.board.mark_catalog()
            raise
        finally:
            if task.done():
                self._loading.pop(key, None)
        if self.errors.pop(key, None) is not None:
            self.board.mark_catalog()
        return result

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

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
from typing import Any

from textual.dom import DOMNode
from textual.signal import Signal

from oddstui import config
from oddstui.api.errors import OddsApiError
from oddstui.api.pacing import RefreshSchedule
from oddstui.api.rest import ApiClient
from oddstui.tui import adapt
from oddstui.tui.feed_port import FeedPort
from oddstui.tui.state import Board, ChangeSet, EventView, FeedStatus
from oddstui.tui.text import clean

#: How often live events (and their clocks) are refetched over REST, in seconds, while the
#: hourly budget is plentiful; at most LIVE_SHARE of what is left goes to it when it is not.
LIVE_REFRESH = 20.0
LIVE_SHARE = 0.25
#: A kick-off the board has not listed asks for an early refetch: asks within KICKOFF_DEBOUNCE
#: seconds make one, never sooner than KICKOFF_GAP after the last (each used to cost one).
KICKOFF_DEBOUNCE, KICKOFF_GAP = 2.0, 10.0
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
        self.watchlist: list[config.WatchedEvent] = list(watchlist or [])
        self._watchlist_path = watchlist_path
        #: The last failure per load ("sports", "live", ("leagues", sport), ...), as plain text.
        self.errors: dict[Any, str] = {}
        #: True once the list of live events has been loaded at least once.
        self.live_loaded = False
        self._feed_dirty = False
        #: When the live events are refetched (paced by the budget, kick-offs debounced).
        self.live_schedule = RefreshSchedule(
            LIVE_REFRESH, min_gap=KICKOFF_GAP, debounce=KICKOFF_DEBOUNCE, share=LIVE_SHARE
        )
        self._loading: dict[Any, asyncio.Task[Any]] = {}
        #: Kick-offs seen on the feed before the live list had them (tests read it).
        self.unlisted_kickoffs = 0
        self._unlisted: set[int] = set()
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
        return self.live_schedule.due(self.api.budget)

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
                        self._unlisted_kickoff(update.event_id)
                    self.board.set_status(update.event_id, update.status)
                if update.scores is not None:
                    s = update.scores
                    self.board.set_score(update.event_id, s.home, s.away, s.periods)
            elif update.kind == "odds" and update.key is not None and len(update.key) > 1:
                self._prices.add(update.key)
            elif update.kind == "reconnected":
                # Scores and status are not replayed: none is current until refreshed.
                self.board.mark_scores_stale()
                self.live_schedule.ask()
        self._refresh_status(feed)

    def _unlisted_kickoff(self, event_id: int) -> None:
        """A live status for an event the board does not know: only the next live listing can
        name it, so ask for one (debounced; its later scores ask again harmlessly)."""
        if event_id not in self._unlisted:
            self._unlisted.add(event_id)
            self.unlisted_kickoffs += 1
        self.live_schedule.ask()

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
            budget_note=self.live_schedule.note(self.api.budget),
        )
        shown = (status.state, status.detail, status.relay, status.budget_note)
        was = (self.status.state, self.status.detail, self.status.relay, self.status.budget_note)
        if shown != was:
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
            budget_note=self.live_schedule.note(self.api.budget),
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
        self.live_schedule.started()
        self._unlisted.clear()
        requested = time.monotonic()
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
        """Fetch the starred events that the board does not know yet."""
        missing = [w.id for w in self.watchlist if w.id not in self.board.events]
        for event_id in missing[:WATCH_FETCH_LIMIT]:
            try:
                await self.load_event(event_id)
            except OddsApiError:
                continue  # shown with its saved names and an unknown status
        self.board.mark_catalog()

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

    def is_watched(self, event_id: int) -> bool:
        return any(item.id == event_id for item in self.watchlist)

    def toggle_watch(self, event_id: int) -> bool:
        """Star or unstar an event and save the watchlist; returns True when now starred."""
        kept = [item for item in self.watchlist if item.id != event_id]
        starred = len(kept) == len(self.watchlist)
        if starred:
            kept.append(self._watched(event_id))
        self.watchlist = kept
        config.save_watchlist(self.watchlist, self._watchlist_path)
        self.board.touch(event_id)
        return starred

    def _watched(self, event_id: int) -> config.WatchedEvent:
        event = self.board.events.get(event_id)
        if event is None:
            return config.WatchedEvent(id=event_id)
        return config.WatchedEvent(
            id=event_id,
            home=event.home,
            away=event.away,
            sport=event.sport_name,
            league=event.league_name,
            start=event.start.isoformat() if event.start else "",
        )

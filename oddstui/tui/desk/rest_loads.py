"""The hub's REST loads: the catalog, event lists, live events, one event, the starred ones.

A mixin of `DeskHub` (hub.py), kept apart so that each file has one job: here what is fetched
and folded into the `Board`, there the feed and the change sets. Each load runs once per key
at a time; a failure is kept in `errors` and shown where the data would be. With a feed, the
scores and status of the events fetched go to its book, and the board takes them from there.

An answer's clocks are anchored at when the request was sent: the service reads them as it
answers (milliseconds later on a loopback), while the desk may take its answer up much later
under load (0.29 s measured with a core busy, for the first live listing).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from oddstui import config
from oddstui.api.errors import NotFound, OddsApiError
from oddstui.api.models import Event
from oddstui.api.pacing import RefreshSchedule
from oddstui.api.rest import ApiClient
from oddstui.tui.desk import watch_identity, wire_views
from oddstui.tui.desk.feed import Feed
from oddstui.tui.desk.state import Board, EventView
from oddstui.tui.desk.watchlist import Watchlist
from oddstui.tui.text import clean

#: At most this many starred events are fetched one by one when the watchlist opens.
WATCH_FETCH_LIMIT = 50
#: How many sports have their league counts fetched at once.
CATALOG_CONCURRENCY = 6
#: A sport's leagues are fetched once a day: the catalog (names, counts) moves slowly, and a
#: free plan's hour holds 100 requests. In memory, not on disk: the counts are only asked for
#: when the Sports or Leagues screen is opened, so a restart costs nothing until then, and a
#: file would outlive the day's counts for no gain.
CATALOG_TTL = 24 * 3600.0


class RestLoads:
    """Fetches into `board`; `DeskHub` provides the attributes below."""

    api: ApiClient
    feed: Feed | None
    board: Board
    watch: Watchlist
    now: Callable[[], float]
    errors: dict[Any, str]
    live_loaded: bool
    rematched: dict[int, int]
    live_schedule: RefreshSchedule
    _unlisted: set[int]
    _loading: dict[Any, asyncio.Task[Any]]
    rest_at: float | None
    #: When each sport's leagues were last fetched (local time), for the day's cache.
    _leagues_at: dict[str, float]

    def note_budget(self) -> None:
        """The REST budget changed (the hub refreshes the status bar's count)."""

    def flush(self) -> Any:
        """Fold in what the feed's book holds now and publish a change set (the hub's)."""

    def sent_at(self) -> float | None:
        """When a request is sent, on the book's clock (None without a feed)."""
        return self.feed.monotonic() if self.feed is not None else None

    def scores_to_book(self, events: list[Event], requested: float | None) -> None:
        """The events' scores and status go to the book, and the board mirrors it at once."""
        if self.feed is not None:
            self.feed.merge_events(events, requested)
            self.flush()

    async def load_sports(self) -> None:
        sports = await self._once(("sports",), self.api.sports)
        self.board.set_sports([wire_views.sport_view(sport) for sport in sports])

    async def load_sport_counts(self) -> None:
        """League event counts per sport, a few sports at a time (one request each, once a day);
        the Sports screen asks for them when it is first shown."""
        if not self.board.sports:
            await self.load_sports()
        gate = asyncio.Semaphore(CATALOG_CONCURRENCY)

        async def one(slug: str) -> None:
            async with gate:
                try:
                    await self.load_leagues(slug)
                except OddsApiError:
                    pass  # the count stays unknown ("…"); the Leagues screen retries and says why

        await asyncio.gather(*(one(slug) for slug in list(self.board.sports)))

    async def load_leagues(self, sport: str) -> None:
        """The sport's leagues, fetched at most once a day (`CATALOG_TTL`)."""
        fetched = self._leagues_at.get(sport)
        if (
            fetched is not None
            and self.now() - fetched < CATALOG_TTL
            and sport in self.board.leagues
        ):
            return
        leagues = await self._once(("leagues", sport), lambda: self.api.leagues(sport))
        self._leagues_at[sport] = self.now()
        self.board.set_leagues(sport, [wire_views.league_view(league, sport) for league in leagues])
        self.note_budget()

    async def load_events(self, sport: str, league: str | None) -> None:
        key = (sport, league or "")
        requested = self.sent_at()
        asked, events = await self._once_sent(
            ("events", key), lambda: self.api.events(sport, league=league, limit=500)
        )
        self.board.set_listing(key, [wire_views.event_view(event, asked) for event in events])
        self.scores_to_book(events, requested)
        self.note_budget()

    async def load_live(self) -> None:
        self.live_schedule.started()
        self._unlisted.clear()
        requested = self.sent_at()
        asked, events = await self._once_sent(("live",), self.api.live_events)
        arrived = self.now()
        self.board.set_live([wire_views.event_view(event, asked) for event in events])
        self.scores_to_book(events, requested)
        self.live_loaded = True
        self.rest_at = arrived
        if self.feed is not None:
            self.feed.scores_refreshed()
        self.note_budget()

    async def load_event(self, event_id: int) -> EventView:
        requested = self.sent_at()
        asked, event = await self._once_sent(("event", event_id), lambda: self.api.event(event_id))
        self.board.put_event(wire_views.event_view(event, asked))
        self.scores_to_book([event], requested)
        self.note_budget()
        return self.board.events[event_id]

    async def load_watched(self) -> None:
        """Make sure each starred entry still names its match: fetch it by id, and when the id
        now names another match (or none), find it again by sport, names and kick-off."""
        for item in list(self.watch.entries)[:WATCH_FETCH_LIMIT]:
            if item.id in self.watch.confirmed:
                continue
            event = self.board.events.get(item.id)
            if event is None or not watch_identity.same_match(item, event):
                try:
                    event = await self.load_event(item.id)
                except NotFound:
                    event = None
                except OddsApiError:
                    continue  # unknown for now: shown with its saved names
            if self.watch.check(item, event):
                continue
            requested = self.sent_at()
            try:
                candidates = await self._candidates(item)
            except OddsApiError:
                continue
            arrived = self.now()
            views = [wire_views.event_view(event, arrived) for event in candidates]
            found = self.watch.rematch(item, views)
            if found is not None and found != item.id:
                self.rematched[item.id] = found
                self.put_events([event for event in candidates if event.id == found], requested)
        self.board.mark_catalog()

    def put_events(self, events: list[Event], requested: float | None) -> None:
        """Events fetched apart from the lists (a search, a rematch) onto the board."""
        arrived = self.now()
        for event in events:
            self.board.put_event(wire_views.event_view(event, arrived))
        self.scores_to_book(events, requested)

    async def _candidates(self, item: config.WatchedEvent) -> list[Event]:
        """The events of the entry's sport that kick off near its saved start."""
        wanted = item.sport.strip().casefold()  # a slug; older entries kept the sport's name
        slug = next(
            (s.slug for s in self.board.sports.values() if wanted in (s.slug, s.name.casefold())),
            wanted,
        )
        start = watch_identity.saved_start(item)
        if not slug or start is None:
            return []
        window = timedelta(seconds=watch_identity.START_TOLERANCE)
        return await self.api.events(slug, start=start - window, to=start + window, limit=5000)

    async def _once(self, key: Any, fetch: Callable[[], Any]) -> Any:
        return (await self._once_sent(key, fetch))[1]

    async def _once_sent(self, key: Any, fetch: Callable[[], Any]) -> tuple[float, Any]:
        """Run one fetch per key at a time; a second caller waits for the first one's answer.
        Returns when the request was sent (local time; the first caller's) and the answer.

        A failure is kept in `errors[key]` (screens show it where the data would be) and
        raised, so the worker that asked reports it.
        """
        task = self._loading.get(key)
        if task is None or task.done():
            task = asyncio.ensure_future(self._sent_then(fetch))
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

    async def _sent_then(self, fetch: Callable[[], Any]) -> tuple[float, Any]:
        sent = self.now()
        return sent, await fetch()

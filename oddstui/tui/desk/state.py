"""What the screens show, independent of how it arrived: sports, leagues, events, feed health.

The hub fills a `Board` from REST answers and feed messages on the UI thread; screens read it.
Nothing here imports textual, so it is tested directly.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime

from oddstui.api.messages import ReplayInfo
from oddstui.book.match_clock import clock_stops, held_played
from oddstui.tui.desk.clocks import ClockReading, estimate_rate

LIVE, PENDING, SETTLED, CANCELLED = "live", "pending", "settled", "cancelled"


@dataclass(slots=True)
class SportView:
    slug: str
    name: str
    live: int | None = None
    upcoming: int | None = None


@dataclass(slots=True)
class LeagueView:
    slug: str
    name: str
    sport: str
    events: int | None = None


@dataclass(slots=True)
class EventView:
    """One event as the screens show it."""

    id: int
    sport_slug: str
    sport_name: str
    league_slug: str
    league_name: str
    home: str
    away: str
    start: datetime | None
    status: str
    score_home: int | None = None
    score_away: int | None = None
    periods: dict[str, tuple[int, int]] = field(default_factory=dict)
    clock: ClockReading | None = None
    bookmaker_count: int | None = None
    # False after a reconnect until a fresh score arrives: scores are not replayed.
    score_fresh: bool = True
    home_id: int | None = None  # participant ids, for the crests
    away_id: int | None = None
    red_cards: tuple[int, int] | None = None  # (home, away), where the scores carry them

    @property
    def title(self) -> str:
        return f"{self.home} v {self.away}"


def in_play(event: EventView | None) -> bool:
    """The match is being played, as the feed last said; an event the desk does not hold is
    not known to be (the boards' one live-or-pre-match rule: stale limits, the live/pre filter)."""
    return event is not None and event.status == LIVE


@dataclass(frozen=True, slots=True)
class DeskStatus:
    """The feed's health as the status bar shows it."""

    state: str = "connecting"
    last_seq: int | None = None
    last_receive: float | None = None  # local time of the last frame
    requests_left: int | None = None
    detail: str = ""
    relay: str | None = None  # behind an `oddstui relay`: its upstream's state
    replay: ReplayInfo | None = None  # the feed is an `oddstui replay`
    budget_note: str = ""  # set when a low hourly budget slows the refreshes

    @property
    def trustworthy(self) -> bool:
        # Without a feed in the plan, prices are as fresh as the last REST refresh: their ages
        # (not the feed's state) say how far to trust them.
        return self.state in ("live", "replaying", "not in plan")


@dataclass(frozen=True, slots=True)
class ChangeSet:
    """One coalesced batch of changes, published at most a few times a second."""

    events: frozenset[int] = frozenset()
    catalog: bool = False  # sports, leagues or event lists changed
    feed: bool = False  # the feed's state changed
    # The book's change keys of prices: (event, bookmaker) and (event, bookmaker, market).
    prices: frozenset[tuple[int, str] | tuple[int, str, str]] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.events) or self.catalog or self.feed or bool(self.prices)


@dataclass(slots=True)
class Board:
    """Everything the browsing screens read. Mutated only on the UI thread, by the hub."""

    sports: dict[str, SportView] = field(default_factory=dict)
    leagues: dict[str, list[LeagueView]] = field(default_factory=dict)
    events: dict[int, EventView] = field(default_factory=dict)
    # event ids listed per (sport, league or ""), in the order the service gave them
    listings: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    live_ids: set[int] = field(default_factory=set)
    # Seconds of play per local second, estimated from successive live listings.
    clock_rate: float = 1.0
    _dirty_events: set[int] = field(default_factory=set)
    _dirty_catalog: bool = False
    #: With a feed, the book holds scores and status: a REST answer brings the rest of an
    #: event, and the hub folds the book's scores and status in (`set_score`, `set_status`).
    scores_from_book: bool = False
    #: Unix time each event's score or status was last seen to change: a price quoted before
    #: it is from another match (the boards mark arbitrages and edges built on one).
    match_changed: dict[int, float] = field(default_factory=dict)
    #: True once the feed has carried a clock: the service tells when clocks stop and start
    #: (the built-in one does), so a clock read over REST is exact until the feed says more.
    feed_clocks: bool = False
    #: The local time the desk shows clocks at (the hub's wall clock): a new reading holds what
    #: the old one shows now, not at the new one's anchor, which can be earlier (it is anchored
    #: when it was read). None: at the anchor (tests on synthetic times).
    clock_now: Callable[[], float] | None = None

    def put_event(self, event: EventView) -> None:
        """Insert or replace an event, keeping a fresher clock than the new one.

        With `scores_from_book`, a known event keeps the scores and status it has: they change
        only through `set_score` and `set_status`, from the book. A new one shows the answer's
        until the hub folds the book in, in the same turn.
        """
        old = self.events.get(event.id)
        if old is not None and self.scores_from_book:
            event.score_home, event.score_away = old.score_home, old.score_away
            event.periods, event.status = old.periods, old.status
            event.red_cards = old.red_cards
            event.score_fresh = old.score_fresh
        if old is not None and event.clock is None and event.status == LIVE:
            event.clock = old.clock
        if old is not None and event.bookmaker_count is None:
            event.bookmaker_count = old.bookmaker_count
        if old is not None and (old.status, old.score_home, old.score_away) != (
            event.status,
            event.score_home,
            event.score_away,
        ):
            self.match_changed[event.id] = time.time()
        if (
            old is not None
            and old.clock is not None
            and old.clock.from_feed
            and event.status == LIVE
            and event.clock is not None
            and not event.clock.from_feed
        ):
            # The feed tells every stop and start: its reading is as new as any answer's.
            event.clock = old.clock
        elif event.clock is not None and self.feed_clocks and not event.clock.from_feed:
            event.clock = replace(event.clock, from_feed=True)
        if event.clock is not None and event.clock.rate != self.clock_rate:
            event.clock = replace(event.clock, rate=self.clock_rate)
        if old is not None and old.clock is not None and event.clock is not None:
            event.clock = _held(old.clock, event.clock, self.clock_now)
        self.events[event.id] = event
        if event.status == LIVE:
            self.live_ids.add(event.id)
        else:
            self.live_ids.discard(event.id)
        if old != event:
            self._dirty_events.add(event.id)

    def set_score(
        self,
        event_id: int,
        home: int,
        away: int,
        periods: dict[str, tuple[int, int]],
        red_cards: tuple[int, int] | None = None,
    ) -> None:
        event = self.events.get(event_id)
        if event is None:
            return
        now = (home, away, periods, red_cards)
        same = (event.score_home, event.score_away, event.periods, event.red_cards) == now
        if same and event.score_fresh:
            return
        if (event.score_home, event.score_away, event.red_cards) != (home, away, red_cards):
            self.match_changed[event_id] = time.time()
        event.score_home, event.score_away, event.periods = home, away, dict(periods)
        event.red_cards = red_cards
        event.score_fresh = True
        self._dirty_events.add(event_id)

    def set_status(self, event_id: int, status: str) -> None:
        event = self.events.get(event_id)
        if event is None:
            return
        if event.status == status:
            return
        event.status = status
        self.match_changed[event_id] = time.time()
        if status != LIVE:
            event.clock = None
        self._dirty_events.add(event_id)
        if status == LIVE:
            self.live_ids.add(event_id)
        else:
            self.live_ids.discard(event_id)
        self._recount_live()
        self._dirty_catalog = True

    def set_feed_clock(self, event_id: int, clock: ClockReading) -> None:
        """A clock the feed carried: it replaces the one shown, never stepping back in a
        period. The first one tells that the service sends them: every clock shown is then
        exact (no stop or start goes untold)."""
        event = self.events.get(event_id)
        if event is None or event.status != LIVE:
            return
        if not self.feed_clocks:
            self.feed_clocks = True
            for other in self.events.values():
                if other.clock is not None and not other.clock.from_feed:
                    other.clock = replace(other.clock, from_feed=True)
                    self._dirty_events.add(other.id)
        old = event.clock
        if old is not None and old.arrived_at >= clock.arrived_at and old.from_feed:
            return
        clock = replace(clock, rate=self.clock_rate, from_feed=True)
        event.clock = clock if old is None else _held(old, clock, self.clock_now)
        self._dirty_events.add(event_id)

    def estimating_clocks(self) -> bool:
        """True while a live clock that stops for play is only estimated between readings."""
        if self.feed_clocks:
            return False
        return any(
            clock_stops(event.sport_slug)
            for event in self.live_events()
            if event.clock is not None and event.clock.running
        )

    def mark_scores_stale(self) -> None:
        """After a reconnect: scores and status were not replayed, so none is current (nor a
        clock the feed carried: the next listing's replaces it)."""
        for event in self.events.values():
            if event.clock is not None and event.clock.from_feed:
                event.clock = replace(event.clock, from_feed=False)
            if event.score_fresh and event.status == LIVE:
                event.score_fresh = False
                self._dirty_events.add(event.id)

    def set_listing(self, key: tuple[str, str], events: list[EventView]) -> None:
        for event in events:
            self.put_event(event)
        self.listings[key] = [event.id for event in events]
        self._dirty_catalog = True

    def set_live(self, events: list[EventView]) -> None:
        """Install the full list of live events: those not in it are no longer live."""
        pairs = []
        for event in events:
            old = self.events.get(event.id)
            if old is not None and old.clock is not None and event.clock is not None:
                pairs.append((old.clock, event.clock))
        rate = estimate_rate(pairs)
        if rate is not None:
            self.clock_rate = rate
        fresh = {event.id for event in events}
        for event_id in self.live_ids - fresh:
            gone = self.events.get(event_id)
            if gone is not None and gone.status == LIVE:
                # It ended between two polls; its final status arrives by feed or next listing.
                gone.clock = None
                self._dirty_events.add(event_id)
        self.live_ids = set(fresh)
        for event in events:
            self.put_event(event)
        self._recount_live()
        self._dirty_catalog = True

    def set_sports(self, sports: list[SportView]) -> None:
        for sport in sports:
            old = self.sports.get(sport.slug)
            if old is not None:
                sport.live = sport.live if sport.live is not None else old.live
                sport.upcoming = sport.upcoming if sport.upcoming is not None else old.upcoming
            self.sports[sport.slug] = sport
        self._recount_live()
        self._dirty_catalog = True

    def set_leagues(self, sport: str, leagues: list[LeagueView]) -> None:
        self.leagues[sport] = leagues
        view = self.sports.get(sport)
        if view is not None and all(league.events is not None for league in leagues):
            total = sum(league.events or 0 for league in leagues)
            view.upcoming = max(total - (view.live or 0), 0)
        self._dirty_catalog = True

    def touch(self, event_id: int) -> None:
        """Mark an event changed (its prices moved, or it was starred)."""
        if event_id in self.events:
            self._dirty_events.add(event_id)

    def mark_catalog(self) -> None:
        self._dirty_catalog = True

    def live_events(self) -> list[EventView]:
        events = [self.events[i] for i in self.live_ids if i in self.events]
        return sorted(events, key=_live_order)

    def take_changes(self) -> tuple[frozenset[int], bool]:
        events, catalog = frozenset(self._dirty_events), self._dirty_catalog
        self._dirty_events.clear()
        self._dirty_catalog = False
        return events, catalog

    def _recount_live(self) -> None:
        counts: dict[str, int] = {}
        for event_id in self.live_ids:
            event = self.events.get(event_id)
            if event is not None:
                counts[event.sport_slug] = counts.get(event.sport_slug, 0) + 1
        for slug, sport in self.sports.items():
            sport.live = counts.get(slug, 0)


def _held(old: ClockReading, new: ClockReading,
          now: Callable[[], float] | None) -> ClockReading:
    """The new clock, holding what the old one shows now when it is behind it in the same
    period (a clock never steps back)."""
    if new is old:
        return new
    at = new.arrived_at if now is None else max(now(), new.arrived_at)
    shown = old.played_at(at)
    floor = held_played(shown, new.played_seconds, old.period == new.period)
    return new if floor <= new.played_seconds else replace(new, floor=floor)


def _live_order(event: EventView) -> tuple[str, str, float, int]:
    start = event.start.timestamp() if event.start else 0.0
    return (event.sport_name, event.league_name, start, event.id)

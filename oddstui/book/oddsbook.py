"""``OddsBook``: the client's local state of events, scores and every bookmaker's prices.

The feed client applies each message with ``apply``; REST snapshots go through
``install_snapshot``. Both record which keys changed, and the UI collects them once per tick with
``take_changes`` and repaints only those. Change keys are:

- ``(event_id,)``: header, status, scores, clock or staleness
- ``(event_id, bookmaker)``: the bookmaker appeared, disappeared or changed its link
- ``(event_id, bookmaker, market)``: prices or lines of that market

``apply`` sits on the socket reader's hot path: it copies nothing and sorts nothing. A market
whose lines are unchanged costs one comparison; only prices that changed are looked at further.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import datetime

from oddstui.api.messages import Message, OddsMessage, ScoreMessage, StatusMessage
from oddstui.api.models import Clock, Event, MarketQuote, OddsRecord
from oddstui.book.reads import BookReads, ChangeKey
from oddstui.book.service_clock import ServiceClock
from oddstui.book.state import (
    FINISHED_STATUSES,
    BookmakerState,
    EventState,
    MarketState,
)


class OddsBook(BookReads):
    """Events and prices as last received, with movement and change tracking."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        """``clock`` stamps messages that carry no receive time (tests pass a fake one)."""
        self._clock = clock
        self._events: dict[int, EventState] = {}
        self._changes: set[ChangeKey] = set()
        self.applied = 0
        """Messages applied so far (odds, score and status)."""
        self.service_clock = ServiceClock()
        """The service's clock, from the messages' timestamps: ages are "its now - updatedAt"."""
        self.on_change: Callable[[], None] | None = None
        """Called (on the writer's thread) when a change arrives after ``take_changes``."""
        self.complete_markets = False
        """True when each odds message lists all its bookmaker's markets (the built-in service
        says so in its welcome): a market that a message leaves out is gone."""

    # ------------------------------------------------------------------ writing

    def apply(self, message: Message) -> None:
        """Apply one feed message. Applying the same message again changes nothing.

        Odds messages merge by market name: a message carrying only ML leaves Totals in place,
        unless ``complete_markets`` is set, when the markets a message leaves out are removed.
        ``deleted`` and ``no_markets`` clear that bookmaker's markets for the event. Welcome and
        resync messages are the feed client's business and are ignored here.
        """
        kind = type(message)
        if kind is OddsMessage:
            self.apply_odds(message)  # type: ignore[arg-type]
            return
        quiet = not self._changes
        if isinstance(message, ScoreMessage):
            self._observe_clock(message.timestamp, message.received)
            self._apply_score(message)
        elif isinstance(message, StatusMessage):
            self._observe_clock(message.timestamp, message.received)
            self._apply_status(message)
        else:
            return
        self.applied += 1
        if quiet:
            self._woken()

    def _observe_clock(self, stamp: datetime | None, received: float) -> None:
        received = received or self._clock()
        if stamp is not None and self.service_clock.due(received):
            self.service_clock.observe(stamp.timestamp(), received)

    def apply_odds(self, message: OddsMessage) -> None:
        """``apply`` for an odds message, one call shorter (the feed's hot path)."""
        if not self._changes:
            self._apply_odds(message)
            self._woken()
        else:
            self._apply_odds(message)

    def _woken(self) -> None:
        if self._changes and self.on_change is not None:
            self.on_change()

    def _apply_odds(self, message: OddsMessage) -> None:
        self.applied += 1
        event_id = message.event_id
        state = self._events.get(event_id)
        if state is None:
            # Prices say nothing of the header, status or scores: the event's own key is not
            # reported, or a reader would take the empty scores for a real 0-0.
            state = self._events[event_id] = EventState(event_id)
        bookie = message.bookie
        book = state.books.get(bookie)
        if message.kind == "deleted" or message.kind == "no_markets":
            if book is not None and book.markets:
                for name in book.markets:
                    self._changes.add((event_id, bookie, name))
                book.markets = {}
                self._changes.add((event_id, bookie))
            return
        if book is None:
            book = state.books[bookie] = BookmakerState()
            self._changes.add((event_id, bookie))
        if message.url is not None and message.url != book.url:
            book.url = message.url
            self._changes.add((event_id, bookie))
        markets = book.markets
        changed = self._changes.add
        now = message.received or self._clock()
        clock = self.service_clock
        if clock.due(now) and message.timestamp is not None:
            clock.observe(message.timestamp.timestamp(), now)
        for quote in message.markets:
            name = quote.name
            current = markets.get(name)
            if current is None:
                markets[name] = MarketState(quote, now)
                changed((event_id, bookie, name))
            elif current.merge(quote, now):
                changed((event_id, bookie, name))
        if self.complete_markets and len(markets) > len(message.markets):
            listed = {quote.name for quote in message.markets}
            for name in [name for name in markets if name not in listed]:
                del markets[name]
                changed((event_id, bookie, name))

    def install_snapshot(
        self,
        records: Iterable[OddsRecord],
        received: float | None = None,
        requested: Iterable[int] = (),
    ) -> None:
        """Replace the state of these events with REST odds records (GET /odds, /odds/multi).

        Markets and bookmakers missing from a record are removed. Several records of one event
        (a snapshot fetched in chunks of 30 bookmakers) are joined first. Prices that differ
        from what the book held are recorded as moves, so a resync still flashes what changed.
        It runs to completion before the caller can read the book, so no one sees half a
        snapshot. Events in ``requested`` that the service no longer returned lose their
        bookmakers (their header and scores stay).
        """
        quiet = not self._changes
        now = self._clock() if received is None else received
        joined = _joined(records)
        for record in joined:
            self._install_record(record, now)
        returned = {record.event.id for record in joined}
        for event_id in requested:
            state = self._events.get(event_id)
            if event_id not in returned and state is not None:
                for bookie, held in state.books.items():
                    for name in held.markets:
                        self._changes.add((event_id, bookie, name))
                    self._changes.add((event_id, bookie))
                state.books = {}
        if quiet:
            self._woken()

    def update_events(
        self,
        events: Iterable[Event],
        received: float | None = None,
        requested: float | None = None,
    ) -> None:
        """Refresh headers, status, scores and clocks from REST events (/events, /events/live).

        ``requested`` is when the request was sent, on the book's clock (None: not known): a
        score or status the feed set since is newer than the answer and kept. Every event is
        announced (its change key set), so a reader that did not show it before can mirror it.
        """
        now = self._clock() if received is None else received
        asked = float("-inf") if requested is None else requested
        quiet = not self._changes
        for event in events:
            state = self._event(event.id)
            self._set_header(state, event, now, keep_scores=state.scores_received > asked)
            self._changes.add((event.id,))
        if quiet:
            self._woken()

    def mark_scores_stale(self) -> None:
        """Score and status are not replayed after a reconnect: flag them until refreshed."""
        for state in self._events.values():
            if not state.scores_stale:
                state.scores_stale = True
                self._changes.add((state.event_id,))

    def keep_bookmakers(self, names: Iterable[str]) -> None:
        """Forget every bookmaker not in `names`: the account's selection no longer has them,
        so the feed will never update (or delete) their prices again."""
        keep = set(names)
        for state in self._events.values():
            for bookie in [bookie for bookie in state.books if bookie not in keep]:
                for name in state.books.pop(bookie).markets:
                    self._changes.add((state.event_id, bookie, name))
                self._changes.add((state.event_id, bookie))

    def remove_event(self, event_id: int) -> None:
        if self._events.pop(event_id, None) is not None:
            self._changes.add((event_id,))

    def take_changes(self) -> set[ChangeKey]:
        """The keys changed since the last call (see the module docstring)."""
        changes = self._changes
        self._changes = set()
        return changes

    # ------------------------------------------------------------------ internals

    def _event(self, event_id: int) -> EventState:
        state = self._events.get(event_id)
        if state is None:
            state = self._events[event_id] = EventState(event_id)
        return state

    def _apply_score(self, message: ScoreMessage) -> None:
        state = self._event(message.event_id)
        state.scores_received = message.received or self._clock()
        if message.clock is not None:
            self._feed_clock(state, message.clock, self._sent_at(message))
        if state.scores != message.scores or state.scores_stale:
            state.scores = message.scores
            state.scores_stale = False
            self._changes.add((message.event_id,))

    def _sent_at(self, message: ScoreMessage | StatusMessage) -> float:
        """When the message left the service, on the local clock: a feed clock is anchored
        there, not when this (perhaps busy) reader took the message up."""
        received = message.received or self._clock()
        if message.timestamp is None:
            return received
        return self.service_clock.sent_at(message.timestamp.timestamp(), received)

    def _feed_clock(self, state: EventState, clock: Clock, sent: float) -> None:
        """A clock the feed carried (the built-in service's, when it stops or starts)."""
        state.clock = clock
        state.clock_received = sent
        state.clock_from_feed = True
        self._changes.add((state.event_id,))

    def _apply_status(self, message: StatusMessage) -> None:
        state = self._event(message.event_id)
        state.scores_received = message.received or self._clock()
        if state.status != message.status or state.scores != message.scores or state.scores_stale:
            state.status = message.status
            state.scores = message.scores
            state.scores_stale = False
            if message.status in FINISHED_STATUSES:
                state.clock = None
            self._changes.add((message.event_id,))
        if message.clock is not None and message.status == "live":
            self._feed_clock(state, message.clock, self._sent_at(message))

    def _set_header(
        self, state: EventState, event: Event, now: float, *, keep_scores: bool = False
    ) -> None:
        """Take a REST event's header and clock, and its status and scores unless `keep_scores`
        (the feed's are newer)."""
        changed = state.header != event
        state.header = event
        if not keep_scores:
            changed = changed or (
                state.status != event.status or state.scores != event.scores or state.scores_stale
            )
            state.status = event.status
            state.scores = event.scores
            state.scores_stale = False
        if keep_scores and state.clock_from_feed:
            pass  # the feed's clock came after the request: newer than the answer's
        elif event.clock is not None:
            changed = changed or state.clock != event.clock
            state.clock = event.clock
            state.clock_received = now
            state.clock_from_feed = False
        elif state.status != "live" and state.clock is not None:
            state.clock = None
            changed = True
        if changed:
            self._changes.add((event.id,))

    def _install_record(self, record: OddsRecord, now: float) -> None:
        event_id = record.event.id
        state = self._event(event_id)
        self._set_header(state, record.event, now)
        state.urls = record.urls
        state.bookmaker_ids = record.bookmaker_ids
        for bookie in [name for name in state.books if name not in record.bookmakers]:
            for name in state.books.pop(bookie).markets:
                self._changes.add((event_id, bookie, name))
            self._changes.add((event_id, bookie))
        for bookie, quotes in record.bookmakers.items():
            self._replace_markets(state, bookie, quotes, record.urls.get(bookie), now)

    def _replace_markets(
        self,
        state: EventState,
        bookie: str,
        quotes: tuple[MarketQuote, ...],
        url: str | None,
        now: float,
    ) -> None:
        event_id = state.event_id
        book = state.books.get(bookie)
        if book is None:
            book = state.books[bookie] = BookmakerState()
            self._changes.add((event_id, bookie))
        if url != book.url:
            book.url = url
            self._changes.add((event_id, bookie))
        fresh = {quote.name for quote in quotes}
        for name in [name for name in book.markets if name not in fresh]:
            del book.markets[name]
            self._changes.add((event_id, bookie, name))
        for quote in quotes:
            current = book.markets.get(quote.name)
            if current is None:
                book.markets[quote.name] = MarketState(quote, now)
                self._changes.add((event_id, bookie, quote.name))
            elif current.merge(quote, now):
                self._changes.add((event_id, bookie, quote.name))


def _joined(records: Iterable[OddsRecord]) -> list[OddsRecord]:
    """One record per event: bookmakers, links and ids of an event's records put together."""
    by_event: dict[int, OddsRecord] = {}
    for record in records:
        held = by_event.get(record.event.id)
        if held is None:
            by_event[record.event.id] = record
            continue
        by_event[record.event.id] = OddsRecord(
            event=record.event,
            bookmakers={**held.bookmakers, **record.bookmakers},
            urls={**held.urls, **record.urls},
            bookmaker_ids={**held.bookmaker_ids, **record.bookmaker_ids},
        )
    return list(by_event.values())

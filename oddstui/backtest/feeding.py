"""A recording's records applied to the backtest's books, telling which lines each one touched.

Feed messages go through the feed client's own decoders, as on the desk: an odds message
through its fast path with each market left as text (`decode_odds_texts`, so that the line store
decodes only the markets that changed), anything that path does not take through
`api.messages.iter_frame`. Odds go to a `LineQuotes`, which holds each line's quotes ready for
the scans; events, statuses and scores to the desk's own `OddsBook`, and REST snapshots through
it as well. What a record touched is worked out per line (the lines whose prices it changed or
removed), so the scans after it look at those lines only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from oddstui.api.messages import OddsMessage, ScoreMessage, StatusMessage, Welcome, iter_frame
from oddstui.api.models import parse_event, parse_odds_record
from oddstui.api.odds_decoder import NOT_FAST, decode_odds_texts
from oddstui.backtest.line_quotes import Change, LineQuotes
from oddstui.backtest.line_state import MarketLine
from oddstui.book.oddsbook import OddsBook
from oddstui.recording.records import FeedMessage, Gap, Snapshot


@dataclass(slots=True)
class Touched:
    """What one record changed: lines of prices, and events whose status or score moved."""

    bookmaker: str | None = None
    """The one bookmaker whose prices changed (an odds message); None after a snapshot."""
    event_id: int | None = None
    """With `bookmaker`: the event of its prices (a feed message is one message)."""
    changes: list[Change] = field(default_factory=list)
    """With `bookmaker`: its prices on each line it changed, before and after."""
    lines: set[MarketLine] = field(default_factory=set)
    """Without: every line touched, each to be looked at afresh."""
    events: set[int] = field(default_factory=set)
    status: list[tuple[int, str]] = field(default_factory=list)
    """(event, new status) for each status message."""

    def line_keys(self) -> set[MarketLine]:
        """Every line touched."""
        return {state.key for state, _, _ in self.changes} if self.changes else self.lines

    def event_ids(self) -> set[int]:
        """Every event whose prices, status or score the record touched."""
        if self.event_id is not None:
            return self.events | {self.event_id}
        return {key[0] for key in self.lines} | self.events

    def markets(self) -> set[tuple[int, str]]:
        """(event, market) of every line touched."""
        return {(key[0], key[1]) for key in self.line_keys()}


class BookFeeder:
    """Applies records to the books and counts what it could not read."""

    def __init__(self) -> None:
        self.book = OddsBook(clock=lambda: 0.0)
        """Events: headers, statuses and scores; no prices (they are in `lines`)."""
        self.lines = LineQuotes()
        self.malformed = 0
        self.messages = 0

    def apply(self, record: Snapshot | FeedMessage | Gap) -> Touched:
        if isinstance(record, FeedMessage):
            return self.apply_message(record)
        if isinstance(record, Snapshot):
            return self.apply_snapshot(record)
        return Touched()  # a gap: the snapshot after it says what changed

    def apply_snapshot(self, snapshot: Snapshot) -> Touched:
        """REST odds replace their events' prices; REST events refresh headers, status and
        scores. Looked at again: the lines of the events with odds, and of the events whose
        sport became known or changed (a draw or not decides what an arbitrage needs)."""
        book = self.book
        records = []
        for raw in snapshot.odds:
            try:
                records.append(parse_odds_record(raw))
            except ValueError:
                self.malformed += 1
        events = []
        for raw in snapshot.events:
            try:
                events.append(parse_event(raw))
            except ValueError:
                self.malformed += 1
        priced = {record.event.id for record in records}
        ids = priced | {event.id for event in events}
        was = {event_id: sport_and_status(book, event_id) for event_id in ids}
        book.install_snapshot(records, received=snapshot.time)
        book.update_events(events, received=snapshot.time)
        book.take_changes()
        touched = Touched()
        moved = set()
        for event_id, (sport, status) in was.items():
            now_sport, now_status = sport_and_status(book, event_id)
            if now_sport != sport:
                moved.add(event_id)
            if now_status != status and now_status:
                touched.status.append((event_id, now_status))
        for event_id in priced:  # the prices move to the line store, the book keeps none
            state = book.event(event_id)
            held = {} if state is None else state.books
            bookmakers = {name: [m.quote for m in b.markets.values()] for name, b in held.items()}
            touched.lines |= self.lines.replace_event(event_id, bookmakers)
            if state is not None:
                state.books = {}
        touched.lines |= self.lines.lines_of(moved - priced)
        touched.events = ids
        return touched

    def apply_message(self, record: FeedMessage) -> Touched:
        text = record.text
        if text:
            try:
                fast = decode_odds_texts(text)
                if fast is not None:
                    kind, _, _, event_id, bookmaker, _, markets = fast
                    changes = self.lines.apply_texts(event_id, bookmaker, kind, markets)
                    self.messages += 1
                    return Touched(bookmaker, event_id, changes)
            except NOT_FAST:
                pass  # nothing was applied: the general path decides
        touched = Touched()
        for message in iter_frame(text or orjson.dumps(record.message), record.time):
            if message is None:
                self.malformed += 1
            elif type(message) is OddsMessage:
                self.messages += 1
                touched.bookmaker = message.bookie
                touched.event_id = message.event_id
                touched.changes += self.lines.apply_odds(
                    message.event_id, message.bookie, message.kind, message.markets
                )
            elif isinstance(message, ScoreMessage | StatusMessage):
                self.messages += 1
                self.book.apply(message)
                touched.events.add(message.event_id)
                if isinstance(message, StatusMessage):
                    touched.status.append((message.event_id, message.status))
            elif isinstance(message, Welcome):
                self.lines.complete_markets = message.complete_markets
        return touched


def sport_and_status(book: OddsBook, event_id: int) -> tuple[str | None, str]:
    """The event's sport slug (None while the book has no header for it) and its status."""
    state = book.event(event_id)
    if state is None:
        return None, ""
    return (None if state.header is None else state.header.sport.slug), state.status

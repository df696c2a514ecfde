"""A recording's records applied to the desk's own book, telling which lines each one touched.

Feed messages go through the feed client's own decoder (`api.messages.iter_frame`) and
`OddsBook.apply`, exactly as on the desk. What a message touched is worked out per line (the
lines whose prices it changed or removed), so the scans after it look at those lines only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import orjson

from oddstui.api.messages import OddsMessage, ScoreMessage, StatusMessage, Welcome, iter_frame
from oddstui.api.models import MarketQuote, parse_event, parse_odds_record
from oddstui.book.oddsbook import OddsBook
from oddstui.book.state import LineKey
from oddstui.recording.records import FeedMessage, Gap, Snapshot

MarketLine = tuple[int, str, LineKey]
"""(event id, market, line)."""
Prices = dict[str, float]
"""side -> price."""


@dataclass(slots=True)
class Touched:
    """What one record changed: lines of prices, and events whose status or score moved."""

    lines: set[MarketLine] = field(default_factory=set)
    """Every line touched; with `bookmaker` None, each is to be looked at afresh."""
    bookmaker: str | None = None
    """The one bookmaker whose prices changed (an odds message); None after a snapshot."""
    prices: dict[MarketLine, tuple[Prices | None, Prices | None]] = field(default_factory=dict)
    """With `bookmaker`: its prices on each touched line, before and after (None: no line)."""
    events: set[int] = field(default_factory=set)
    status: list[tuple[int, str]] = field(default_factory=list)
    """(event, new status) for each status message."""


class BookFeeder:
    """Applies records to an `OddsBook` and counts what it could not read."""

    def __init__(self) -> None:
        self.book = OddsBook(clock=lambda: 0.0)
        self.malformed = 0
        self.messages = 0

    def apply(self, record: Snapshot | FeedMessage | Gap) -> Touched:
        if isinstance(record, FeedMessage):
            return self.apply_message(record)
        if isinstance(record, Snapshot):
            return self.apply_snapshot(record)
        return Touched()  # a gap: the snapshot after it says what changed

    def apply_snapshot(self, snapshot: Snapshot) -> Touched:
        """REST odds replace their events' books; REST events refresh headers, status and
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
        ids = {record.event.id for record in records} | {event.id for event in events}
        was = {event_id: _sport_and_status(book, event_id) for event_id in ids}
        lines = _all_lines(book, (record.event.id for record in records))
        book.install_snapshot(records, received=snapshot.time)
        book.update_events(events, received=snapshot.time)
        book.take_changes()
        touched = Touched()
        moved = set()
        for event_id, (sport, status) in was.items():
            now_sport, now_status = _sport_and_status(book, event_id)
            if now_sport != sport:
                moved.add(event_id)
            if now_status != status and now_status:
                touched.status.append((event_id, now_status))
        lines.update(_all_lines(book, {record.event.id for record in records} | moved))
        touched.lines = lines
        touched.events = ids
        return touched

    def apply_message(self, record: FeedMessage) -> Touched:
        touched = Touched()
        # The desk's own decoder reads the message from its text as stored (the fast path).
        for message in iter_frame(record.text or orjson.dumps(record.message), record.time):
            if message is None:
                self.malformed += 1
            elif type(message) is OddsMessage:
                self.messages += 1
                self._apply_odds(message, touched)
            elif isinstance(message, ScoreMessage | StatusMessage):
                self.messages += 1
                self.book.apply(message)
                touched.events.add(message.event_id)
                if isinstance(message, StatusMessage):
                    touched.status.append((message.event_id, message.status))
            elif isinstance(message, Welcome):
                self.book.complete_markets = message.complete_markets
        return touched

    def _apply_odds(self, message: OddsMessage, touched: Touched) -> None:
        book = self.book
        event_id = message.event_id
        state = book.event(event_id)
        held = None if state is None else state.books.get(message.bookie)
        names: set[str] = {quote.name for quote in message.markets}
        if held is not None and (
            book.complete_markets or message.kind == "deleted" or message.kind == "no_markets"
        ):
            names.update(held.markets)
        before: dict[str, MarketQuote] = {}
        if held is not None:
            for name in names:
                market = held.markets.get(name)
                if market is not None:
                    before[name] = market.quote
        book.apply_odds(message)
        state = book.event(event_id)
        held = None if state is None else state.books.get(message.bookie)
        markets = {} if held is None else held.markets
        touched.bookmaker = message.bookie
        changed = touched.prices
        for name in names:
            old = before.get(name)
            market = markets.get(name)
            new = None if market is None else market.quote
            if old is new:
                continue
            _diff_lines(event_id, name, old, new, changed)
        touched.lines.update(changed)
        book.take_changes()


def _diff_lines(
    event_id: int,
    name: str,
    old: MarketQuote | None,
    new: MarketQuote | None,
    changed: dict[MarketLine, tuple[Prices | None, Prices | None]],
) -> None:
    """The lines whose prices differ between two quotes of one market, into `changed`."""
    old_lines = () if old is None else old.lines
    new_lines = () if new is None else new.lines
    if len(old_lines) == len(new_lines):  # the usual case: the same lines, some prices moved
        found = []
        for before, line in zip(old_lines, new_lines, strict=True):
            if before.hdp != line.hdp or before.label != line.label:
                break
            if before.prices != line.prices:
                found.append(((event_id, name, (line.hdp, line.label)), before.prices, line.prices))
        else:
            for where, was, now in found:
                changed[where] = (was, now)
            return
    by_key = {(line.hdp, line.label): line for line in old_lines}
    for line in new_lines:
        key = (line.hdp, line.label)
        before_line = by_key.pop(key, None)
        if before_line is None:
            changed[(event_id, name, key)] = (None, line.prices)
        elif before_line.prices != line.prices:
            changed[(event_id, name, key)] = (before_line.prices, line.prices)
    for key, gone in by_key.items():
        changed[(event_id, name, key)] = (gone.prices, None)


def _sport_and_status(book: OddsBook, event_id: int) -> tuple[str | None, str]:
    state = book.event(event_id)
    if state is None:
        return None, ""
    return (None if state.header is None else state.header.sport.slug), state.status


def _all_lines(book: OddsBook, event_ids: Iterable[int]) -> set[MarketLine]:
    found: set[MarketLine] = set()
    for event_id in event_ids:
        state = book.event(event_id)
        if state is None:
            continue
        for held in state.books.values():
            for name, market in held.markets.items():
                for line in market.quote.lines:
                    found.add((event_id, name, (line.hdp, line.label)))
    return found

"""The mutable records an ``OddsBook`` keeps: per event, per bookmaker, per market.

They are plain slotted classes mutated in place by the book; callers read them and never write.
A market keeps the latest wire ``MarketQuote`` as received (no copy) plus a flat array of the
moves of its prices, so applying an unchanged market costs one comparison and a changed price
writes two numbers.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import KeysView
from datetime import datetime

import msgspec

from oddstui.api.models import EMPTY_SCORES, Clock, Event, Line, MarketQuote, Scores

LineKey = tuple[float | None, str | None]
"""A line within a market: ``(hdp, label)``; ``(None, None)`` for ML."""
_UNMOVED = (0.0, math.nan)


class PriceMove(msgspec.Struct, frozen=True, gc=False):
    """The last change of one price, as ``MarketState.move`` reads it."""

    previous: float | None
    """The price before the change; None when the price first appeared."""
    direction: int
    """+1 when the price went up (drifted), -1 when it went down (shortened), 0 when new."""
    since: float
    """Receive time (the book's clock) of the change."""


class MarketState:
    """One bookmaker's current quote of one market, and the last move of each of its prices.

    Moves are kept in one flat array of doubles, two per price: the price before its last change
    (0.0 when it appeared), and when that change arrived (NaN while it has not moved). The array
    holds ``stride`` doubles a line, in the quote's order of lines; within a line, a side's two
    doubles sit at its offset in the market's ``layout``. The feed changes prices tens of
    thousands of times a second: the array takes a change without making an object, and holds a
    market's moves in a few cache lines where a dictionary of move records spread them over
    dozens.
    """

    __slots__ = ("quote", "_index", "first_seen", "_moves", "_layout", "_stride")

    def __init__(self, quote: MarketQuote, received: float) -> None:
        self.quote = quote
        """The latest quote as received; its lines are in wire order."""
        self._index: dict[LineKey, int] | None = None
        self.first_seen = received
        """When this market appeared; the age of prices that have not moved since."""
        self._moves: array[float] | None = None  # made at the first change
        self._layout: dict[str, int] = _NO_SIDES
        self._stride = 0

    @property
    def updated_at(self) -> datetime | None:
        """The bookmaker's own ``updatedAt`` of the market."""
        return self.quote.updated_at

    @property
    def index(self) -> dict[LineKey, int]:
        """Where each line sits in ``quote.lines`` (built on first use, kept while the layout
        of lines stays the same)."""
        if self._index is None:
            self._index = {(line.hdp, line.label): i for i, line in enumerate(self.quote.lines)}
        return self._index

    def line(self, key: LineKey) -> Line | None:
        position = self.index.get(key)
        return None if position is None else self.quote.lines[position]

    def line_keys(self) -> KeysView[LineKey]:
        return self.index.keys()

    def price(self, line: LineKey, side: str) -> float | None:
        found = self.line(line)
        return None if found is None else found.prices.get(side)

    def move(self, line: LineKey, side: str) -> PriceMove | None:
        """The last change of a price after ``first_seen``, or None."""
        moves = self._moves
        position = self.index.get(line)
        offset = self._layout.get(side)
        if moves is None or position is None or offset is None:
            return None
        price = self.quote.lines[position].prices.get(side)
        slot = position * self._stride + offset
        since = moves[slot + 1]
        if price is None or since != since:  # NaN: the price has not moved
            return None
        previous = moves[slot]
        if previous == 0.0:
            return PriceMove(None, 0, since)
        return PriceMove(previous, 1 if price > previous else -1, since)

    def changed_at(self, line: LineKey, side: str) -> float:
        """When the price last changed value (or appeared)."""
        move = self.move(line, side)
        return self.first_seen if move is None else move.since

    def merge(self, quote: MarketQuote, received: float) -> bool:
        """Take a newer quote of this market; True when any price or line changed.

        Lines compare in C (they are msgspec structs), so an unchanged market costs one
        comparison. The common change keeps the lines and their sides: each changed price then
        writes its move into its two slots. Anything else lays the moves out again. This runs
        for every market of every feed message.
        """
        old = self.quote
        if quote is old:
            return False
        new_lines = quote.lines
        old_lines = old.lines
        if new_lines == old_lines:
            # Keep the old quote, unless its time changed: the new one is still in the cache
            # and is freed at once, the old one is not touched again.
            if quote.updated_at != old.updated_at:
                self.quote = quote
            return False
        self.quote = quote
        if len(new_lines) == len(old_lines):
            moves = self._moves
            if moves is None:  # the first change
                self._lay_out(old_lines)
                moves = self._moves = array("d", _UNMOVED) * (self._stride * len(old_lines) // 2)
            layout = self._layout
            stride = self._stride
            for position, (line, before) in enumerate(zip(new_lines, old_lines, strict=True)):
                if line.hdp != before.hdp or line.label != before.label:
                    break
                prices = line.prices
                previous = before.prices
                if prices == previous:  # nothing changed, or only the line's max
                    continue
                if len(prices) != len(previous):
                    break
                base = position * stride
                for side, price in prices.items():
                    old_price = previous.get(side)
                    if price != old_price:
                        offset = layout.get(side)
                        if old_price is None or offset is None:
                            break  # another side
                        moves[base + offset] = old_price
                        moves[base + offset + 1] = received
                else:
                    continue
                break
            else:
                return True
        self._relayout(old_lines, received)
        return True

    def _lay_out(self, lines: tuple[Line, ...]) -> None:
        self._layout = _layout(lines)
        self._stride = 2 * len(self._layout)

    def _relayout(self, old_lines: tuple[Line, ...], received: float) -> None:
        """Lay the moves out for the current lines, matching prices by line key and side name.

        Every price starts as having appeared now, which is right for new lines and sides; a
        price the old lines held either moved now or keeps its earlier move. Slots ``merge``
        wrote before it gave up hold what this writes again.
        """
        old_moves = self._moves
        old_layout = self._layout
        old_stride = self._stride
        lines = self.quote.lines
        self._lay_out(lines)
        layout = self._layout
        stride = self._stride
        moves = array("d", (0.0, received)) * (stride * len(lines) // 2)
        old_at = {(line.hdp, line.label): position for position, line in enumerate(old_lines)}
        for position, line in enumerate(lines):
            at = old_at.get((line.hdp, line.label))
            if at is None:
                continue
            before = old_lines[at].prices
            for side, price in line.prices.items():
                old_price = before.get(side)
                if old_price is None:
                    continue
                slot = position * stride + layout[side]
                if old_price != price:
                    moves[slot] = old_price
                elif old_moves is None:
                    moves[slot + 1] = math.nan
                else:
                    earlier = at * old_stride + old_layout[side]
                    moves[slot : slot + 2] = old_moves[earlier : earlier + 2]
        self._moves = moves
        self._index = None


_NO_SIDES: dict[str, int] = {}
_LAYOUTS: dict[tuple[str, ...], dict[str, int]] = {}
_LAYOUTS_KEPT = 1000  # the feed's side names are few; anything past this is not shared


def _layout(lines: tuple[Line, ...]) -> dict[str, int]:
    """Each side of the lines, first seen first, and the offset of its two doubles in a line's
    slots. Markets with the same sides share one dictionary."""
    sides: list[str] = []
    for line in lines:
        for side in line.prices:
            if side not in sides:
                sides.append(side)
    key = tuple(sides)
    found = _LAYOUTS.get(key)
    if found is None:
        found = {side: 2 * i for i, side in enumerate(key)}
        if len(_LAYOUTS) < _LAYOUTS_KEPT:
            _LAYOUTS[key] = found
    return found


class BookmakerState:
    """One bookmaker's markets for one event."""

    __slots__ = ("markets", "url")

    def __init__(self) -> None:
        self.markets: dict[str, MarketState] = {}
        self.url: str | None = None


#: An event in one of these statuses has ended: nothing on it can be traded any more.
FINISHED_STATUSES = frozenset({"settled", "cancelled"})


def finished(status: str | None) -> bool:
    """True once a match is settled or cancelled: it leaves every board and every ticket."""
    return status in FINISHED_STATUSES


class EventState:
    """An event: its header, status, scores, clock and the bookmakers quoting it."""

    __slots__ = (
        "event_id",
        "header",
        "status",
        "scores",
        "clock",
        "clock_received",
        "clock_from_feed",
        "scores_stale",
        "scores_received",
        "urls",
        "bookmaker_ids",
        "books",
    )

    def __init__(self, event_id: int) -> None:
        self.event_id = event_id
        self.header: Event | None = None
        """Names, date, sport and league; None until REST has delivered it."""
        self.status = ""
        self.scores: Scores = EMPTY_SCORES
        self.clock: Clock | None = None
        self.clock_received = 0.0
        """When ``clock`` was read, on the local monotonic clock: a REST answer's receive time,
        a feed message's send time (its stamp through the service clock); running clocks
        advance from here."""
        self.clock_from_feed = False
        """True while ``clock`` is the feed's (a score or status message carried it)."""
        self.scores_stale = False
        """Set after a reconnect (score and status are not replayed) until refreshed."""
        self.scores_received = float("-inf")
        """When the feed last set the scores or status (a REST answer asked before is older)."""
        self.urls: dict[str, str | None] = {}
        self.bookmaker_ids: dict[str, str] = {}
        self.books: dict[str, BookmakerState] = {}

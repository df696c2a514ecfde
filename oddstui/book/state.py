"""The mutable records an ``OddsBook`` keeps: per event, per bookmaker, per market.

They are plain slotted classes mutated in place by the book; callers read them and never write.
A market keeps the latest wire ``MarketQuote`` as received (no copy) plus a small map of the
prices that moved, so applying an unchanged market costs one comparison.
"""

from __future__ import annotations

from collections.abc import KeysView
from datetime import datetime

import msgspec

from oddstui.api.models import EMPTY_SCORES, Clock, Event, Line, MarketQuote, Scores

LineKey = tuple[float | None, str | None]
"""A line within a market: ``(hdp, label)``; ``(None, None)`` for ML."""


class PriceMove(msgspec.Struct, frozen=True, gc=False):
    """The last change of one price (a struct: it is made on the hot path)."""

    previous: float | None
    """The price before the change; None when the price first appeared."""
    direction: int
    """+1 when the price went up (drifted), -1 when it went down (shortened), 0 when new."""
    since: float
    """Receive time (the book's clock) of the change."""


class MarketState:
    """One bookmaker's current quote of one market."""

    __slots__ = ("quote", "_index", "first_seen", "moves")

    def __init__(self, quote: MarketQuote, received: float) -> None:
        self.quote = quote
        """The latest quote as received; its lines are in wire order."""
        self._index: dict[LineKey, int] | None = None
        self.first_seen = received
        """When this market appeared; the age of prices that have not moved since."""
        self.moves: dict[LineKey, dict[str, PriceMove]] = {}
        """Per line, per side: the prices that changed or appeared after ``first_seen``."""

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

    def move(self, line: LineKey, side: str) -> PriceMove | None:
        found = self.moves.get(line)
        return None if found is None else found.get(side)

    def merge(self, quote: MarketQuote, received: float) -> bool:
        """Take a newer quote of this market; True when any price or line changed.

        Lines compare in C (they are msgspec structs), so an unchanged market costs one
        comparison. The common change keeps the line layout (same handicaps in the same order):
        lines are then compared pairwise and only a line that differs is looked at side by side.
        This runs for every market of every feed message, hence the inlined loops.
        """
        old = self.quote
        if quote is old:
            return False
        self.quote = quote
        new_lines = quote.lines
        old_lines = old.lines
        if new_lines == old_lines:
            return False
        if len(new_lines) == len(old_lines):
            moves = self.moves
            for line, before in zip(new_lines, old_lines, strict=True):
                if line == before:
                    continue
                hdp = line.hdp
                label = line.label
                if hdp != before.hdp or label != before.label:
                    break
                # The prices differ, or only max does (then no side below has moved).
                previous_prices = before.prices
                key = (hdp, label)
                line_moves = moves.get(key)
                if line_moves is None:
                    line_moves = moves[key] = {}
                for side, price in line.prices.items():
                    previous = previous_prices.get(side)
                    if previous != price:
                        if previous is None:
                            line_moves[side] = PriceMove(None, 0, received)
                        elif price > previous:
                            line_moves[side] = PriceMove(previous, 1, received)
                        else:
                            line_moves[side] = PriceMove(previous, -1, received)
            else:
                return True
        return self._relayout(old_lines, new_lines, received)

    def _relayout(
        self, old_lines: tuple[Line, ...], new_lines: tuple[Line, ...], received: float
    ) -> bool:
        """Lines appeared, vanished or moved: match them by key and forget vanished lines."""
        old_by_key = {(line.hdp, line.label): line for line in old_lines}
        moves = self.moves
        changed = False
        for line in new_lines:
            key = (line.hdp, line.label)
            before = old_by_key.pop(key, None)
            previous_prices = {} if before is None else before.prices
            if before is None or previous_prices != line.prices or before.max != line.max:
                changed = True
            for side, price in line.prices.items():
                previous = previous_prices.get(side)
                if previous != price:
                    direction = 0 if previous is None else (1 if price > previous else -1)
                    line_moves = moves.get(key)
                    if line_moves is None:
                        line_moves = moves[key] = {}
                    line_moves[side] = PriceMove(previous, direction, received)
        self._index = None
        if old_by_key:  # lines vanished: forget their moves
            for key in old_by_key:
                moves.pop(key, None)
            return True
        return changed

    def price(self, line: LineKey, side: str) -> float | None:
        found = self.line(line)
        return None if found is None else found.prices.get(side)

    def changed_at(self, line: LineKey, side: str) -> float:
        """When the price last changed value (or appeared)."""
        move = self.move(line, side)
        return self.first_seen if move is None else move.since


class BookmakerState:
    """One bookmaker's markets for one event."""

    __slots__ = ("markets", "url")

    def __init__(self) -> None:
        self.markets: dict[str, MarketState] = {}
        self.url: str | None = None


class EventState:
    """An event: its header, status, scores, clock and the bookmakers quoting it."""

    __slots__ = (
        "event_id",
        "header",
        "status",
        "scores",
        "clock",
        "clock_received",
        "scores_stale",
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
        """When ``clock`` arrived; running clocks advance from here."""
        self.scores_stale = False
        """Set after a reconnect (score and status are not replayed) until refreshed."""
        self.urls: dict[str, str | None] = {}
        self.bookmaker_ids: dict[str, str] = {}
        self.books: dict[str, BookmakerState] = {}

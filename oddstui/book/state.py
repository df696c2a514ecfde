"""The mutable records an ``OddsBook`` keeps: per event, per bookmaker, per market.

They are plain slotted classes mutated in place by the book; callers read them and never write.
A market keeps the latest wire ``MarketQuote`` as received (no copy) plus a small map of the
prices that moved, so applying an unchanged market costs one tuple comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from oddstui.api.models import EMPTY_SCORES, Clock, Event, Line, MarketQuote, Scores

LineKey = tuple[float | None, str | None]
"""A line within a market: ``(hdp, label)``; ``(None, None)`` for ML."""
PriceKey = tuple[LineKey, str]
"""A price within a market: ``(line key, side)``."""


@dataclass(frozen=True, slots=True)
class PriceMove:
    """The last change of one price."""

    previous: float | None
    """The price before the change; None when the price first appeared."""
    direction: int
    """+1 when the price went up (drifted), -1 when it went down (shortened), 0 when new."""
    since: float
    """Receive time (the book's clock) of the change."""


class MarketState:
    """One bookmaker's current quote of one market."""

    __slots__ = ("quote", "lines", "received", "first_seen", "moves")

    def __init__(self, quote: MarketQuote, received: float) -> None:
        self.quote = quote
        """The latest quote as received; its lines are in wire order."""
        self.lines: dict[LineKey, Line] = {line.key: line for line in quote.lines}
        """The same lines by key."""
        self.received = received
        """When this market was last received, changed or not."""
        self.first_seen = received
        """When this market appeared; the age of prices that have not moved since."""
        self.moves: dict[PriceKey, PriceMove] = {}
        """The prices that changed or appeared after ``first_seen``."""

    @property
    def updated_at(self) -> datetime | None:
        """The bookmaker's own ``updatedAt`` of the market."""
        return self.quote.updated_at

    def merge(self, quote: MarketQuote, received: float) -> bool:
        """Take a newer quote of this market; True when any price or line changed."""
        old = self.quote
        if quote is old:
            return False
        self.received = received
        self.quote = quote
        if quote.lines == old.lines:
            return False
        old_lines = self.lines
        new_lines: dict[LineKey, Line] = {}
        moves = self.moves
        reshaped = False
        for line in quote.lines:
            key = line.key
            new_lines[key] = line
            before = old_lines.get(key)
            if before is None:
                reshaped = True
                for side in line.prices:
                    moves[(key, side)] = PriceMove(None, 0, received)
                continue
            old_prices = before.prices
            if old_prices == line.prices:
                continue
            for side, price in line.prices.items():
                previous = old_prices.get(side)
                if previous != price:
                    if previous is None:
                        moves[(key, side)] = PriceMove(None, 0, received)
                    else:
                        direction = 1 if price > previous else -1
                        moves[(key, side)] = PriceMove(previous, direction, received)
        self.lines = new_lines
        if reshaped or len(new_lines) != len(old_lines):
            for price_key in [k for k in moves if k[0] not in new_lines]:
                del moves[price_key]
        return True

    def price(self, line: LineKey, side: str) -> float | None:
        found = self.lines.get(line)
        return None if found is None else found.prices.get(side)

    def changed_at(self, line: LineKey, side: str) -> float:
        """When the price last changed value (or appeared)."""
        move = self.moves.get((line, side))
        return self.first_seen if move is None else move.since


class BookmakerState:
    """One bookmaker's markets for one event."""

    __slots__ = ("markets", "url", "received")

    def __init__(self, received: float) -> None:
        self.markets: dict[str, MarketState] = {}
        self.url: str | None = None
        self.received = received
        """When an odds message for this bookmaker and event last arrived."""


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

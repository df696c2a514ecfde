"""What the arbitrage board reads from the feed's book: one locked pass, frozen figures out.

No textual, no Rich here. The board calls these inside `hub.read` (the feed's lock held) and
formats what they return after the lock is released, so the socket reader never waits on a
redraw. A leg's quote time is the bookmaker's `updatedAt` when the feed's book holds the price
(else the moment the price last changed, on the service's clock), or else the service's
`updatedAt` for that leg.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from oddstui.book.exchange import net_back
from oddstui.book.oddsbook import OddsBook
from oddstui.tui.boards.arbitrage.arb_rows import LOCAL, ArbRow

QuoteTimes = tuple[float | None, ...]
"""Unix time each leg of a row was quoted, in leg order; None when neither source knows."""


@dataclass(frozen=True, slots=True)
class LegTimes:
    """The quote times of the rows read in one locked pass, by row key."""

    quoted: Mapping[str, QuoteTimes]

    def times(self, key: str) -> QuoteTimes:
        return self.quoted.get(key, ())

    def oldest_age(self, key: str, now: float) -> float | None:
        """Seconds since the oldest known leg of row `key` was quoted; None when none is known."""
        return oldest_age(self.times(key), now)


@dataclass(frozen=True, slots=True)
class LegQuote:
    """One leg as the feed's book knows it, for the stake ticket."""

    quoted: float | None
    """Unix time the leg was quoted (see `leg_times`)."""
    previous: float | None
    """What the leg paid before its last move (net of commission), when the book has a move."""
    moved_ago: float | None
    """Seconds since that move."""
    limit: float | None = None
    """The most the bookmaker takes on the leg's line (its `max`), when the book holds it."""


def leg_times(book: OddsBook | None, row: ArbRow, now: float, clock: float) -> QuoteTimes:
    """The time each shown leg was quoted, on the service's clock (`now` is the service's time,
    `clock` the book's receive clock): the bookmaker's `updatedAt` of the market when the book
    holds the price, as the Event grid counts it, else the service's stamp; None when neither
    knows."""
    times: list[float | None] = []
    line = (row.hdp, row.label)
    for leg in row.legs:
        quoted = None
        if book is not None and LOCAL in row.sources:
            held = book.market(row.event_id, leg.bookmaker, row.market)
            if held is not None and held.price(line, leg.side) is not None:
                updated = held.updated_at
                if updated is not None:
                    quoted = updated.timestamp()
                else:
                    quoted = now - (clock - held.changed_at(line, leg.side))
        times.append(quoted if quoted is not None else leg.quoted)
    return tuple(times)


def oldest_age(times: QuoteTimes, now: float) -> float | None:
    known = [stamp for stamp in times if stamp is not None]
    return max(now - min(known), 0.0) if known else None


def read_leg_times(
    book: OddsBook | None,
    rows: Mapping[str, ArbRow],
    keys: Collection[str],
    now: float,
    clock: float,
) -> LegTimes:
    """The quote times of the rows in `keys` (the locked pass of a redraw)."""
    quoted = {key: leg_times(book, rows[key], now, clock) for key in keys if key in rows}
    return LegTimes(MappingProxyType(quoted))


def read_leg_quotes(
    book: OddsBook | None, row: ArbRow, now: float, clock: float
) -> tuple[LegQuote, ...]:
    """Each leg's quote time and last move (the locked pass of the stake ticket)."""
    quotes = []
    for leg, quoted in zip(row.legs, leg_times(book, row, now, clock), strict=True):
        previous = moved_ago = limit = None
        if book is not None:
            line = (row.hdp, row.label)
            held = book.market(row.event_id, leg.bookmaker, row.market)
            held_line = held.line(line) if held is not None else None
            limit = held_line.max if held_line is not None else None
            move = book.movement(row.event_id, leg.bookmaker, row.market, line, leg.side)
            if move is not None and move.previous is not None:
                previous = net_back(move.previous, leg.commission)
                moved_ago = clock - move.since
        quotes.append(LegQuote(quoted, previous, moved_ago, limit))
    return tuple(quotes)


def quoted_now(book: OddsBook | None, row: ArbRow) -> tuple[LegNow, ...]:
    """Each leg as its bookmaker quotes it in the book now (the live ticket's read)."""
    found: list[LegNow] = []
    line = (row.hdp, row.label)
    for leg in row.legs:
        held = None if book is None else book.market(row.event_id, leg.bookmaker, row.market)
        if held is None:
            found.append(LegNow(held=False))
            continue
        entry = held.line(line)
        price = entry.prices.get(leg.side) if entry is not None else None
        limit = entry.max if entry is not None else None
        found.append(LegNow(held=True, price=price, limit=limit))
    return tuple(found)


@dataclass(frozen=True, slots=True)
class LegNow:
    """One leg in the book now: whether the book holds its bookmaker's market, and if so the
    price (as quoted, before commission; None: no longer quoted) and the line's `max`."""

    held: bool
    price: float | None = None
    limit: float | None = None

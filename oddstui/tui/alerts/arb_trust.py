"""Which arbitrages an alert may name: those the Arbitrage board shows by default.

An arbitrage with a leg quoted before the match's last score or status change, or older than
the stale setting, is a suspect on the board (hidden until `h`): a book that has not yet moved
after a goal, not money on the table. It fires no alert either; once its legs are quoted again
and it still holds, it is an arbitrage like any other.
"""

from __future__ import annotations

from oddstui.book.arbitrage import Arbitrage
from oddstui.book.oddsbook import OddsBook
from oddstui.book.suspect import suspicion

QuoteTimes = tuple[float | None, ...]


def leg_quote_times(book: OddsBook, event_id: int, market: str, arb: Arbitrage) -> QuoteTimes:
    """Each leg's bookmaker's `updatedAt` of the market (Unix time: a bookmaker stamps the
    market as a whole, not a line), None when unknown; read under the feed's lock."""
    times: list[float | None] = []
    for leg in arb.legs:
        held = book.market(event_id, leg.bookmaker, market)
        stamp = None if held is None else held.updated_at
        times.append(None if stamp is None else stamp.timestamp())
    return tuple(times)


def worth_an_alert(
    quoted: QuoteTimes,
    service_now: float,
    changed_at: float | None,
    stale_after: float | None,
    live: bool = False,
) -> bool:
    """True unless the board would hide the arbitrage as suspect (its profit aside: the rule
    sets its own threshold). `changed_at` is the match's last score or status change and
    `service_now` the time, both on the service's clock."""
    known = [stamp for stamp in quoted if stamp is not None]
    oldest = max(service_now - min(known), 0.0) if known else None
    return not suspicion(None, quoted, changed_at, None, oldest, stale_after, live)

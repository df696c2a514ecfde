"""The arbitrage board's rows: the service's arbitrages merged with the ones the client finds.

Nothing here imports textual, so the merge, the vanishing and the ordering are tested directly.
A row is one market line of one event; it is known from the service (`SVC`), from the local
book (`LOCAL`), or both. When neither source has it any more it is greyed out for
`VANISH_GRACE` seconds, then dropped.

An exchange's back price pays net of the trader's commission on winnings (MATHS.md): the profit
counts each exchange leg at `1 + (d - 1)(1 - c)`, and a line that is an arbitrage only before
commission is not one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from oddstui.api.models import ArbitrageBet
from oddstui.book.arbitrage import Arbitrage, one_bookmaker
from oddstui.book.exchange import commission_rate, net_back

SVC, LOCAL = "svc", "local"
#: Seconds a vanished arbitrage stays on the board, greyed out, before it is removed.
VANISH_GRACE = 5.0


@dataclass(frozen=True, slots=True)
class LegView:
    """One leg as the board shows it."""

    side: str
    bookmaker: str
    price: float
    label: str = ""
    quoted: float | None = None
    """Unix time the service says this leg was quoted (its `updatedAt`), when it sent one."""
    commission: float = 0.0
    """The trader's commission on this leg's winnings (an exchange's; 0 for a bookmaker)."""

    @property
    def paid(self) -> float:
        """What the price pays per unit staked, net of commission."""
        return net_back(self.price, self.commission)


@dataclass(slots=True)
class ArbRow:
    """One arbitrage (one event, market and line) and where it is known from."""

    key: str
    event_id: int
    market: str
    hdp: float | None
    label: str | None
    legs: tuple[LegView, ...]
    implied: float
    """``S``, the sum of 1/price over the legs."""
    sources: set[str] = field(default_factory=set)
    first_seen: float = 0.0
    vanished_at: float | None = None
    service_legs: tuple[LegView, ...] = ()
    local_legs: tuple[LegView, ...] = ()
    service_updated: float | None = None
    """Unix time of the service's `updatedAt`, when it sent one."""
    # From the service's includeEventDetails, for events the app has not loaded.
    home: str = ""
    away: str = ""
    sport: str = ""
    league: str = ""
    start: float | None = None
    """Unix time the event starts, from the service's event details."""

    @property
    def profit_pct(self) -> float:
        """(1/S - 1) · 100 on the total stake (`book.arbitrage.PROFIT_DEFINITION`)."""
        return (1.0 / self.implied - 1.0) * 100.0

    @property
    def source_label(self) -> str:
        if self.vanished_at is not None:
            return "gone"
        if self.sources == {SVC, LOCAL}:
            return "BOTH"
        return "SVC" if SVC in self.sources else "LOCAL"

    @property
    def line_text(self) -> str:
        parts = [self.market]
        if self.label:
            parts.append(self.label)
        if self.hdp is not None:
            parts.append(f"{self.hdp:+g}" if "spread" in self.market.lower() else f"{self.hdp:g}")
        return " ".join(parts)


def row_key(event_id: int, market: str, hdp: float | None, label: str | None) -> str:
    """The same key for the service's item and the client's detection of one market line."""
    shown = "" if hdp is None else f"{float(hdp):g}"
    return f"{event_id}|{market.casefold()}|{shown}|{(label or '').casefold()}"


def _implied(legs: Sequence[LegView]) -> float:
    return sum(1.0 / leg.paid for leg in legs)


class ArbRows:
    """Every arbitrage on the board, keyed by `row_key`.

    | method | does |
    |---|---|
    | `set_service` | install the latest /arbitrage-bets answer (replaces the previous one) |
    | `set_local` | install what the client found in the markets it just checked |
    | `sweep` | drop rows that vanished more than `VANISH_GRACE` seconds ago |
    """

    def __init__(self, commission: float = 0.0) -> None:
        #: The trader's commission on an exchange's winnings (0.05 for 5 %).
        self.commission = commission
        self.rows: dict[str, ArbRow] = {}
        #: Keys whose shown text may have changed since `take_dirty`.
        self._dirty: set[str] = set()
        self._removed: set[str] = set()

    def set_service(self, items: Iterable[ArbitrageBet], now: float) -> None:
        fresh: set[str] = set()
        for item in items:
            legs = tuple(
                self._leg(
                    leg.side,
                    leg.bookmaker,
                    leg.odds,
                    leg.label,
                    leg.updated_at.timestamp() if leg.updated_at else None,
                )
                for leg in item.legs
            )
            if len(legs) < 2 or _implied(legs) >= 1.0 or one_bookmaker(legs):
                # Not an arbitrage once the exchanges' commission is paid, or one book's line.
                continue
            market, hdp, label = item.market_name, item.market_hdp, item.market_label
            key = row_key(item.event_id, market, hdp, label)
            fresh.add(key)
            row = self._row(key, item.event_id, market, hdp, label, legs, now)
            row.service_legs = legs
            row.service_updated = item.updated_at.timestamp() if item.updated_at else None
            if item.event is not None:
                row.home, row.away = item.event.home, item.event.away
                row.sport = item.event.sport.name if item.event.sport else ""
                row.league = item.event.league.name if item.event.league else ""
                row.start = item.event.date.timestamp() if item.event.date else None
            self._add_source(row, SVC, now)
        for key, row in self.rows.items():
            if key not in fresh and SVC in row.sources:
                self._drop_source(row, SVC, now)

    def set_local(
        self,
        found: Iterable[tuple[int, str, tuple[float | None, str | None], Arbitrage]],
        checked: Iterable[tuple[int, str]],
        now: float,
    ) -> None:
        """`found` is `OddsBook.arbitrages_in(...)`; `checked` the (event, market) it looked at."""
        fresh: set[str] = set()
        for event_id, market, (hdp, label), arb in found:
            legs = tuple(self._leg(leg.side, leg.bookmaker, leg.price) for leg in arb.legs)
            if _implied(legs) >= 1.0:
                continue  # not an arbitrage once the exchanges' commission is paid
            key = row_key(event_id, market, hdp, label)
            fresh.add(key)
            row = self._row(key, event_id, market, hdp, label, legs, now)
            row.local_legs = legs
            self._add_source(row, LOCAL, now)
        looked = {(event_id, market.casefold()) for event_id, market in checked}
        for key, row in self.rows.items():
            if (
                key not in fresh
                and LOCAL in row.sources
                and (row.event_id, row.market.casefold()) in looked
            ):
                self._drop_source(row, LOCAL, now)

    def sweep(self, now: float, keep: str | None = None) -> list[str]:
        """Remove rows vanished for longer than the grace period (but `keep`, the one under
        the cursor); returns their keys."""
        gone = [
            key
            for key, row in self.rows.items()
            if row.vanished_at is not None and now - row.vanished_at >= VANISH_GRACE and key != keep
        ]
        for key in gone:
            del self.rows[key]
            self._dirty.discard(key)
        return gone

    def drop_events(self, ended: Callable[[int], bool]) -> set[str]:
        """Remove at once, with no grace, every row on an event `ended` says has ended (a
        finished match is not tradable); returns their keys."""
        gone = {key for key, row in self.rows.items() if ended(row.event_id)}
        for key in gone:
            del self.rows[key]
            self._dirty.discard(key)
        return gone

    def take_dirty(self) -> set[str]:
        dirty, self._dirty = self._dirty, set()
        return dirty

    # ------------------------------------------------------------------ internals

    def _leg(
        self, side: str, bookmaker: str, price: float, label: str = "", quoted: float | None = None
    ) -> LegView:
        rate = commission_rate(bookmaker, self.commission)
        return LegView(side, bookmaker, price, label, quoted, rate)

    def _row(
        self,
        key: str,
        event_id: int,
        market: str,
        hdp: float | None,
        label: str | None,
        legs: tuple[LegView, ...],
        now: float,
    ) -> ArbRow:
        row = self.rows.get(key)
        if row is None:
            row = ArbRow(key, event_id, market, hdp, label, legs, _implied(legs), first_seen=now)
            self.rows[key] = row
        self._dirty.add(key)
        return row

    def _add_source(self, row: ArbRow, source: str, now: float) -> None:
        row.sources.add(source)
        row.vanished_at = None
        self._show_legs(row)

    def _drop_source(self, row: ArbRow, source: str, now: float) -> None:
        row.sources.discard(source)
        if source == LOCAL:
            row.local_legs = ()
        if not row.sources:
            row.vanished_at = now
        else:
            self._show_legs(row)
        self._dirty.add(row.key)

    @staticmethod
    def _show_legs(row: ArbRow) -> None:
        # The feed's prices are fresher than the service's last answer.
        legs = row.local_legs if LOCAL in row.sources and row.local_legs else row.service_legs
        if legs:
            row.legs = legs
            row.implied = _implied(legs)


def scan_book(book: Any, keys: Iterable[tuple[Any, ...]] | None) -> tuple[list[Any], list[Any]]:
    """The client's own detection: (found, checked) for `ArbRows.set_local`, over the markets
    in the book's change `keys`, or over every market of the book when `keys` is None."""
    if keys is None:
        checked = [
            (event_id, market)
            for event_id in list(book.event_ids())
            for market in book.market_names(event_id)
        ]
        found = [
            (event_id, market, line, arb)
            for event_id, market in checked
            for line, arb in book.arbitrages(event_id, market)
        ]
        return found, checked
    market_keys = [key for key in keys if len(key) == 3]
    return list(book.arbitrages_in(market_keys)), [(key[0], key[2]) for key in market_keys]

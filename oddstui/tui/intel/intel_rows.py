"""The Books screen's and the Stale lines board's rows, cells and export records.

No textual here (rich `Text` only), so the cells are tested directly. Figures are copied out of
the engine first (`book_rows`, `stale_rows`) and formatted after.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text

from oddstui.intel.engine import IntelEngine
from oddstui.intel.report import BookFigures, report_of
from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.marks import SUSPECT_MARK
from oddstui.tui.text import plain

BOOK_COLUMNS: list[Column] = [
    Column("book", "Bookmaker", 12, grow=8),
    Column("lag", "Lag med", 7, justify="right"),
    Column("p90", "Lag p90", 7, justify="right"),
    Column("n", "Follows", 7, justify="right"),
    Column("led", "Led", 5, justify="right"),
    Column("cluster", "Cluster", 10, priority=1, grow=6),
    Column("stale", "Stale med", 9, priority=1, justify="right"),
    Column("censored", "Censored", 8, priority=2, justify="right"),
    Column("updates", "Upd/mkt-h", 9, priority=2, justify="right"),
    Column("margin", "Margin", 6, priority=2, justify="right"),
]

STALE_COLUMNS: list[Column] = [
    Column("event", "Event", 14, grow=26),
    Column("market", "Market", 8, grow=16),
    Column("line", "Line", 5, grow=12),
    Column("book", "Book", 10, grow=6),
    Column("move", "Sharp move", 10, justify="right"),
    Column("ago", "Ago", 5, justify="right"),
    Column("ev", "EV", 9, justify="right"),  # `⚠ +146.1%`
    Column("fair", "Fair", 6, priority=1, justify="right"),
    Column("price", "Price", 6, priority=1, justify="right"),
]


def _seconds(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}s"


def book_rows(engine: IntelEngine) -> list[BookFigures]:
    return report_of(engine).books


def book_cells(b: BookFigures) -> dict[str, Text]:
    return {
        "book": plain(b.bookmaker + (" ★" if b.sharp else "")),
        "lag": Text("sharp" if b.sharp else _seconds(b.lag_median)),
        "p90": Text("" if b.sharp else _seconds(b.lag_p90)),
        "n": Text(str(b.follows)),
        "led": Text("—" if b.led_share is None else f"{b.led_share * 100:.0f}%"),
        "cluster": plain(b.cluster if b.cluster != b.bookmaker else ""),
        "stale": Text(_seconds(b.stale_median)),
        "censored": Text(str(b.censored)),
        "updates": Text("—" if b.updates_per_hour is None else f"{b.updates_per_hour:.0f}"),
        "margin": Text("—" if b.margin_pct is None else f"{b.margin_pct:.1f}%"),
    }


def book_records(rows: list[BookFigures], resolution: float) -> list[dict[str, Any]]:
    return [
        {
            "bookmaker": b.bookmaker, "sharp": b.sharp, "lag_median_s": b.lag_median,
            "lag_p90_s": b.lag_p90, "follows": b.follows, "censored": b.censored,
            "led_share": b.led_share, "updates_per_market_hour": b.updates_per_hour,
            "margin_pct": b.margin_pct, "cluster": b.cluster,
            "stale_median_s": b.stale_median, "stale_n": b.stale_n,
            "resolution_s": resolution,
        }
        for b in rows
    ]


@dataclass(frozen=True, slots=True)
class StaleRow:
    key: str
    event_id: int
    market: str
    line: str
    book: str
    direction: int
    move: float
    """The sharp move's relative size."""
    since: float
    ev: float | None
    """EV (a share) of the book's best side against the fair price now."""
    fair: float | None
    """The sharp fair price of the line's first side."""
    price: float | None
    """The book's price of that side."""


def stale_rows(engine: IntelEngine) -> list[StaleRow]:
    """The soft prices still on the old side of a sharp move, copied out of the engine."""
    out = []
    for move in engine.open_moves():
        line = move.line
        key = line.key
        if not isinstance(key, tuple):
            continue
        event_id, market, (hdp, label) = key
        text = " ".join(str(x) for x in (hdp, label) if x is not None)
        first = line.sides[0] if line.sides else None
        for book in move.pending:
            prices = line.prices.get(book)
            out.append(StaleRow(
                key=f"{event_id}|{market}|{text}|{book}",
                event_id=event_id, market=market, line=text, book=book,
                direction=move.direction, move=move.size, since=move.start,
                ev=engine.edge(line, book),
                fair=None if not line.fair else 1.0 / line.fair,
                price=None if prices is None or first is None else prices.get(first),
            ))
    out.sort(key=lambda r: (r.since, r.key))
    return out


def stale_cells(row: StaleRow, event_name: str, now: float, epsilon: float) -> dict[str, Text]:
    ev = "—" if row.ev is None else f"{row.ev * 100:+.1f}%"
    mark = f"{SUSPECT_MARK} " if row.ev is not None and row.ev > epsilon else ""
    return {
        "event": plain(event_name),
        "market": plain(row.market),
        "line": plain(row.line or "—"),
        "book": plain(row.book),
        "move": Text(f"{'▲' if row.direction > 0 else '▼'} {row.move * 100:.1f}%"),
        "ago": Text(f"{max(0.0, now - row.since):.0f}s"),
        "ev": Text(mark + ev),
        "fair": Text("—" if row.fair is None else f"{row.fair:.2f}"),
        "price": Text("—" if row.price is None else f"{row.price:.2f}"),
    }


def stale_records(rows: list[StaleRow], names: dict[int, str], now: float) -> list[dict[str, Any]]:
    return [
        {
            "event_id": r.event_id, "event": names.get(r.event_id, ""), "market": r.market,
            "line": r.line, "bookmaker": r.book,
            "move": "shorter" if r.direction > 0 else "longer", "move_pct": r.move * 100.0,
            "seconds_ago": now - r.since, "ev_pct": None if r.ev is None else r.ev * 100.0,
            "fair": r.fair, "price": r.price,
        }
        for r in rows
    ]

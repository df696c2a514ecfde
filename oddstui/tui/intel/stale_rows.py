"""The Stale lines board's rows, cells and export records.

A row is one soft book still on the old side of one sharp move (`IntelEngine.open_moves`,
`intel.behind.still_behind`: not one already past half-way to the new price), shown
on the side the move left behind: the side whose sharp price shortened while this book's did
not (a two-way line's first side when its sharp position rose, else the other; on three or more
sides, when the first side drifted, the other side with the best EV). Its fair price is the
desk's one fair line (`book.fair_policy`, as the Value board and the Event screen, kept by the
engine on the line as `LineState.fair`), its EV `book.value.expected_value`, so EV = price /
fair - 1 holds on the row itself, and the engine judges a stale line by that same edge.

No textual here (rich `Text` only), so the cells are tested directly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from oddstui.book.fair_policy import FairLine
from oddstui.book.formats import OddsFormat
from oddstui.book.suspect import suspicion
from oddstui.book.value import expected_value
from oddstui.intel.behind import still_behind
from oddstui.intel.engine import IntelEngine
from oddstui.intel.lines import LineState, SharpMove
from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.leg_words import leg_label
from oddstui.tui.kit.marks import SUSPECT_MARK
from oddstui.tui.kit.prices import board_price_text
from oddstui.tui.text import plain

STALE_COLUMNS: list[Column] = [
    Column("event", "Event", 11, grow=28),
    Column("market", "Market", 8, grow=14),
    Column("bet", "Bet", 10, grow=6),  # `Under 2.5`, `Home -1.5`: the side left behind
    Column("book", "Book", 10, grow=4),
    Column("price", "Price", 6, justify="right"),
    Column("fair", "Fair", 6, justify="right"),
    Column("ev", "EV", 8, grow=2, justify="right"),  # `⚠ +12.3%`; `⚠ +146.1%` when wider
    Column("move", "Sharp move", 10, priority=1, grow=4, justify="right"),  # `2.10→1.95`
    Column("ago", "Ago", 4, justify="right"),
]

#: Style of a row whose price is at or under the fair price (EV not above 0).
UNDER_FAIR_STYLE = "dim"
#: Style of an EV above ε (the engine's threshold of a stale line by its edge).
EDGE_STYLE = "bold green"


@dataclass(frozen=True, slots=True)
class StaleRow:
    key: str
    event_id: int
    market: str
    line: tuple[float | None, str | None]
    book: str
    side: str | None
    """The side the move left behind at this book (None: the book quotes none of them)."""
    price: float | None
    """The book's price of that side."""
    fair: float | None
    """The side's fair price now (`book.fair_policy`); None while no sharp book quotes the
    whole line."""
    ev: float | None
    """EV (a share) of `price` against `fair`."""
    moved: tuple[float, float] | None
    """The side's fair price before and after the move (the line's fair line where the move
    was measured from, and where it went); None when a sharp book did not quote the whole line
    then."""
    size: float
    """The sharp move's relative size (of the line's first side's probability)."""
    since: float


def _behind(move: SharpMove, sides: tuple[str, ...]) -> tuple[str, ...]:
    """The sides the move shortened at the sharp books: where a book behind it is long."""
    return sides[:1] if move.direction > 0 else sides[1:]


def _moved(move: SharpMove, sides: tuple[str, ...], side: str) -> tuple[float, float] | None:
    """`side`'s fair price before and after the move."""
    before, after = move.fair_before, move.fair_after
    if before is None or after is None:
        return None
    index = sides.index(side)
    return 1.0 / before.probabilities[index], 1.0 / after.probabilities[index]


def _row(move: SharpMove, line: LineState, book: str) -> StaleRow | None:
    key = line.key
    if not isinstance(key, tuple) or not line.sides:
        return None
    event_id, market, (hdp, label) = key
    sides = line.sides
    prices: Mapping[str, float] = line.prices.get(book) or {}
    fair_line: FairLine | None = line.fair
    best: tuple[float, str, float, float | None] | None = None
    for side in _behind(move, sides):
        price = prices.get(side)
        if price is None or price <= 1.0:
            continue
        if fair_line is None:
            best = best or (0.0, side, price, None)
            continue
        p = fair_line.probabilities[sides.index(side)]
        ev = expected_value(p, price)
        if best is None or ev > best[0]:
            best = (ev, side, price, 1.0 / p)
    shown = None if best is None else best[1]
    fair = None if best is None else best[3]
    return StaleRow(
        key=f"{event_id}|{market}|{hdp}|{label}|{book}",
        event_id=event_id, market=market, line=(hdp, label), book=book, side=shown,
        price=None if best is None else best[2], fair=fair,
        ev=None if best is None or fair is None else best[0],
        moved=None if shown is None else _moved(move, sides, shown),
        size=move.size, since=move.start,
    )


def stale_rows(engine: IntelEngine) -> list[StaleRow]:
    """The soft prices still on the old side of a sharp move, oldest move first (a book behind
    two moves of one line is one row, on the newer move)."""
    rows: dict[str, StaleRow] = {}
    for move in sorted(engine.open_moves(), key=lambda m: m.start):
        for book in still_behind(move, move.line):
            row = _row(move, move.line, book)
            if row is not None:
                rows.pop(row.key, None)
                rows[row.key] = row
    return sorted(rows.values(), key=lambda r: (r.since, r.key))


Teams = tuple[str, str]
"""An event's home and away names."""


def bet_text(row: StaleRow) -> str:
    """The side left behind as the boards name a leg, in its words (the Event column names
    the teams): `Over 2.5`, `Home -1.5`, `Draw`."""
    hdp, label = row.line
    if row.side is None:
        return " ".join(str(part) for part in (label, hdp) if part is not None) or "—"
    return leg_label(row.market, row.side, hdp, label)


def edge_pct(row: StaleRow) -> float | None:
    return None if row.ev is None else row.ev * 100.0


def row_suspicion(row: StaleRow, suspect_profit: float | None) -> str:
    """The boards' one suspect rule (`book.suspect`) on the row's EV: an edge too large to be
    there for long (the ⚠ means what it means on every board)."""
    return suspicion(edge_pct(row), (), None, suspect_profit)


def stale_cells(row: StaleRow, teams: Teams, now: float, epsilon: float,
                suspect_profit: float | None, fmt: OddsFormat = "decimal") -> dict[str, Text]:
    ev = edge_pct(row)
    edge = row.ev is not None and row.ev > epsilon
    if row.moved is not None:
        move = f"{board_price_text(row.moved[0], fmt)}→{board_price_text(row.moved[1], fmt)}"
    else:
        move = f"{row.size * 100:.1f}%"
    ev_text = Text("—" if ev is None else f"{ev:+.1f}%", style=EDGE_STYLE if edge else "")
    if row_suspicion(row, suspect_profit):
        ev_text = Text.assemble((f"{SUSPECT_MARK} ", "bold yellow"), ev_text)
    cells = {
        "event": plain(f"{teams[0]} v {teams[1]}" if any(teams) else str(row.event_id)),
        "market": plain(row.market),
        "bet": plain(bet_text(row)),
        "book": plain(row.book),
        "price": Text(board_price_text(row.price, fmt) if row.price else "—"),
        "fair": Text(board_price_text(row.fair, fmt) if row.fair else "—"),
        "ev": ev_text,
        "move": Text(move),
        "ago": Text(f"{max(0.0, now - row.since):.0f}s"),
    }
    if row.ev is not None and row.ev <= 0.0:
        # Behind the move by its own view, but its price is not above the fair one: nothing
        # there to take. Kept (it is behind), dimmed, so the rows with an edge stand out.
        for text in cells.values():
            text.stylize(UNDER_FAIR_STYLE)
    return cells


def stale_sort(row: StaleRow) -> dict[str, float | None]:
    """What the numeric columns sort by (their texts carry signs, marks and odds formats):
    EV as a number, the move by its size, the age by when the move began (oldest first when
    ascending), prices as decimals; None sorts last."""
    return {
        "ev": row.ev, "price": row.price, "fair": row.fair, "move": row.size,
        "ago": -row.since,
    }


def stale_records(rows: list[StaleRow], teams: Mapping[int, Teams], now: float,
                  suspect_profit: float | None) -> list[dict[str, Any]]:
    return [
        {
            "event_id": r.event_id, "event": " v ".join(teams.get(r.event_id, ("", ""))),
            "market": r.market, "hdp": r.line[0], "label": r.line[1], "side": r.side,
            "bet": bet_text(r), "bookmaker": r.book,
            "price": r.price, "fair": r.fair, "ev_pct": edge_pct(r),
            "suspect": row_suspicion(r, suspect_profit),
            "fair_before_move": None if r.moved is None else r.moved[0],
            "fair_after_move": None if r.moved is None else r.moved[1],
            "move_pct": r.size * 100.0, "seconds_ago": now - r.since,
        }
        for r in rows
    ]

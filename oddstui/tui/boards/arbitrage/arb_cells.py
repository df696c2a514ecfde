"""The arbitrage board's cells and ticket legs, from a row, its event and the feed's book.

No textual here, and no book: the figures come from `arb_quotes`, read under the feed's lock
before any of these run. Every leg names its line: a leg the client found reads like one the
service sent (`Over 2.5`, `Arsenal -1.5`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.text import Text

from oddstui.book.formats import OddsFormat
from oddstui.tui.boards.arbitrage.arb_quotes import LegQuote
from oddstui.tui.boards.arbitrage.arb_rows import LOCAL, SVC, ArbRow, LegView
from oddstui.tui.boards.board_cells import (
    VANISHED_STYLE,
    age_text,
    marked,
    percent_text,
    shown_counts,
)
from oddstui.tui.boards.order import Rank
from oddstui.tui.boards.ticket.stakes import TicketLeg
from oddstui.tui.desk.state import EventView
from oddstui.tui.kit import event_fields
from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.leg_words import leg_label
from oddstui.tui.kit.prices import board_price_text
from oddstui.tui.text import clean, plain

#: Leg ages under a minute are shown in steps of this many seconds.
AGE_STEP = 5


#: A line at the end of what a leg backs: "-35.5", "+2", "126.5".
LINE = re.compile(r"[+-]?\d+(?:\.\d+)?")
#: They fit 120 columns (no horizontal scrollbar to repaint with every change); at 80, the
#: profit, the event, the market and line and the legs stay (an arbitrage says what it is on),
#: the rest give way (highest number first).
ARB_COLUMNS: list[Column] = [
    Column("profit", "Profit", 9),
    Column("source", "Src", 5, priority=4),
    Column("event", "Event", 16, grow=32),
    Column("market", "Market", 12, grow=16),
    Column("legs", "Legs", 28, grow=56),
    Column("age", "Age", 4, priority=1),
    Column("score", "Score", 5, priority=2),
    Column("clock", "Clock", 8, priority=2),
]


def leg_name(row: ArbRow, leg: LegView, event: EventView | None) -> str:
    """What the leg backs, line included; the service's words when it sent some."""
    if leg.label:
        return clean(leg.label)
    home = event.home if event else row.home
    away = event.away if event else row.away
    return clean(leg_label(row.market, leg.side, row.hdp, row.label, home, away))


def legs_text(row: ArbRow, event: EventView | None, fmt: OddsFormat, width: int = 0) -> str:
    """Each leg's bookmaker, what it backs and its price. Too long for `width`, what the legs
    back is shortened first (each gets a fair share of the room left), then the bookmakers'
    names; a price is never cut, and no leg is the one that loses everything."""
    parts = [
        (clean(leg.bookmaker), leg_name(row, leg, event), board_price_text(leg.price, fmt))
        for leg in row.legs
    ]
    full = " │ ".join(f"{book} {name} {price}" for book, name, price in parts)
    if not width or len(full) <= width or not parts:
        return full
    room = width - 3 * (len(parts) - 1)
    bare = [len(book) + 1 + len(price) for book, _, price in parts]
    if sum(bare) > room:  # not even every book whole: shorten the books, keep the prices
        shares = fair_shares(bare, room)
        return " │ ".join(
            f"{_shorten(book, max(share - len(price) - 1, 2))} {price}"
            for (book, _, price), share in zip(parts, shares, strict=True)
        )
    needs = [len(name) + 1 for _, name, _ in parts]
    extra = fair_shares(needs, room - sum(bare))
    while any(0 < share < 3 for share in extra):  # too few to say anything: the others get them
        smallest = min((i for i, share in enumerate(extra) if 0 < share < 3), key=extra.__getitem__)
        needs[smallest] = 0
        extra = fair_shares(needs, room - sum(bare))
    legs = []
    for (book, name, price), spare in zip(parts, extra, strict=True):
        name = _shorten(name, spare - 1) if spare >= 3 else ""  # at least "M…"
        legs.append(f"{book} {name} {price}" if name else f"{book} {price}")
    return " │ ".join(legs)


def fair_shares(needs: list[int], room: int) -> list[int]:
    """Split `room` cells among parts that need `needs`: none gets more than it needs, the
    others share what is left equally (water filling)."""
    shares = [0] * len(needs)
    left, waiting = room, sorted(range(len(needs)), key=lambda index: needs[index])
    while waiting:
        index = waiting.pop(0)
        shares[index] = max(min(needs[index], left // (len(waiting) + 1)), 0)
        left -= shares[index]
    return shares


def _shorten(name: str, room: int) -> str:
    """`name` in `room` cells, keeping its line ("… -35.5") when it ends in one."""
    if len(name) <= room:
        return name
    head, _, tail = name.rpartition(" ")
    if head and LINE.fullmatch(tail) and room >= len(tail) + 3:
        return head[: room - len(tail) - 2] + "… " + tail
    return name[: room - 1] + "…" if room > 1 else ""


def arb_detail(row: ArbRow, event: EventView | None, fmt: OddsFormat) -> Text:
    """The highlighted arbitrage in full, for the line under the board: profit, event, market
    and line, then every leg whole (the table's columns may have cut them)."""
    title = event.title if event else (f"{row.home} v {row.away}" if row.home else "")
    text = Text(no_wrap=False)
    text.append(f"{row.profit_pct:+.2f}%", style="bold")
    text.append(f"  {clean(title) or f'event {row.event_id}'} · ")
    text.append(clean(row.line_text), style="bold")
    text.append(f"  {legs_text(row, event, fmt)}")
    return text


def row_cells(
    row: ArbRow,
    event: EventView | None,
    age: float | None,
    now: float,
    fmt: OddsFormat,
    *,
    suspect: str,
    trusted: bool,
    legs_width: int = 0,
) -> dict[str, Text]:
    """Every cell of one row (the moving ones included); `legs_width` is the Legs column's
    width as laid out (0: not known)."""
    legs = legs_text(row, event, fmt, legs_width)
    title = event.title if event else (f"{row.home} v {row.away}" if row.home else "")
    shown = {
        "profit": percent_text(row.profit_pct, style="bold"),
        "event": plain(title or f"event {row.event_id}"),
        "market": plain(row.line_text),
        "legs": Text(legs, no_wrap=True, overflow="ellipsis"),
    }
    if row.vanished_at is not None:
        # A span, not the base style: cells are compared by text and spans before a write.
        for text in shown.values():
            text.stylize(VANISHED_STYLE)
    shown.update(moving_cells(row, event, age, now, trusted=trusted))
    return marked(shown, "profit") if suspect else shown


def moving_cells(
    row: ArbRow, event: EventView | None, age: float | None, now: float, *, trusted: bool
) -> dict[str, Text]:
    """The cells that move with time: age (a gone row's: since it went), score, clock."""
    source = Text(row.source_label, style="bold" if len(row.sources) == 2 else "")
    if row.vanished_at is not None:
        age_cell = age_text(now - row.vanished_at)
        for text in (source, age_cell):
            text.stylize(VANISHED_STYLE)
    else:
        age_cell = age_text(age, step=AGE_STEP)
    return {
        "source": source,
        "age": age_cell,
        "score": event_fields.score_text(event, trusted) if event else Text(""),
        "clock": event_fields.clock_text(event, now) if event else Text(""),
    }


def ticket_legs(
    quotes: tuple[LegQuote, ...], row: ArbRow, event: EventView | None, now: float
) -> list[TicketLeg]:
    """The legs for the stake ticket, each named with its market and line, with its age and
    last move from the feed's book where it has them (`quotes`: `read_leg_quotes`)."""
    legs = []
    for leg, quote in zip(row.legs, quotes, strict=True):
        age = None if quote.quoted is None else max(now - quote.quoted, 0.0)
        label = f"{row.market} {leg_name(row, leg, event)}"
        # The ticket's stakes and returns count what an exchange leg pays, net of commission.
        legs.append(
            TicketLeg(
                leg.side,
                leg.bookmaker,
                leg.paid,
                label,
                age,
                quote.previous,
                quote.moved_ago,
                leg.commission,
                quote.limit,
            )
        )
    return legs


def sport_names(row: ArbRow, event: EventView | None) -> tuple[str, ...]:
    """The sport's name and slug as known, for the sports filter."""
    return (event.sport_name, event.sport_slug) if event is not None else (row.sport,)


def row_rank(row: ArbRow, event: EventView | None, age: float | None) -> Rank:
    start = event.start.timestamp() if event and event.start else row.start
    sport = event.sport_name if event else row.sport
    return Rank(row.profit_pct, age, start, sport, row.vanished_at)


def arb_counts(shown: Iterable[ArbRow], total: int, suspects_hidden: int) -> Text:
    """`27 shown: 20 live (13 SVC · 4 LOCAL · 3 BOTH) + 7 gone · 2 ⚠ hidden · 5 filtered out`:
    the parts add up to the whole, and the whole to every arbitrage known (`total`)."""
    rows = list(shown)
    live = [row for row in rows if row.vanished_at is None]
    svc = sum(1 for row in live if row.sources == {SVC})
    local = sum(1 for row in live if row.sources == {LOCAL})
    parts = f"{svc} SVC · {local} LOCAL · {len(live) - svc - local} BOTH"
    text = shown_counts(len(live), len(rows) - len(live), suspects_hidden, parts)
    filtered = total - len(rows) - suspects_hidden
    if filtered:
        text.append(f" · {filtered} filtered out")
    return text

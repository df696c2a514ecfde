"""The grid's columns and cells made from `price_rows` figures, in the trader's odds format."""

from __future__ import annotations

from oddstui.book.exchange import is_lay
from oddstui.book.formats import OddsFormat, book_places, format_price
from oddstui.tui.event.fair_edges import edge, edge_text
from oddstui.tui.event.grid_cells import Cell, safe_link
from oddstui.tui.event.price_rows import GridRow, PriceFigure, age_text, margin_text, side_label
from oddstui.tui.kit.columns import Column
from oddstui.tui.text import clean

BOOK_WIDTH, PRICE_WIDTH, MARGIN_WIDTH, AGE_WIDTH = 20, 9, 6, 4
#: From this terminal width on, the grid's names and prices get more room.
WIDE_FROM, WIDE_BOOK_WIDTH, WIDE_PRICE_WIDTH = 160, 30, 13
ARROWS = {1: "▲ ", -1: "▼ ", 0: ""}
MISSING = Cell("–", ("muted",))


def grid_columns(sides: list[str], terminal_width: int = 0) -> list[Column]:
    """Bookmaker, the sides (back, then lay), margin and age; wider names and prices on a wide
    terminal. Too narrow for all, the grid hides the age first, then the lay prices, then the
    margin; never a back price."""
    wide = terminal_width >= WIDE_FROM
    book, price = (WIDE_BOOK_WIDTH, WIDE_PRICE_WIDTH) if wide else (BOOK_WIDTH, PRICE_WIDTH)
    return [
        Column("book", "Bookmaker", book),
        *(
            Column(side, side_label(side), price, priority=2 * is_lay(side), justify="right")
            for side in sides
        ),
        Column("margin", "Margin", MARGIN_WIDTH, priority=1, justify="right"),
        Column("age", "Age", AGE_WIDTH, priority=3, justify="right"),
    ]


def price_cell(
    figure: PriceFigure,
    fmt: OddsFormat,
    stale: bool,
    places: int | None = None,
    fair: float | None = None,
) -> Cell:
    """A price (▲/▼ while it flashes), or with `fair` its edge against that fair price: `+3.2%`
    (role `value` above fair, `muted` below)."""
    if figure.price is None:
        return MISSING
    roles: list[str] = []
    if figure.best:
        roles.append("best")
    if figure.move > 0:
        roles.append("up")
    elif figure.move < 0:
        roles.append("down")
    if fair is not None:
        value = edge(figure.price, fair)
        roles.append("value" if value > 0 else "muted")
    if stale:
        roles.append("stale")
    if fair is not None:
        return Cell(ARROWS[figure.move] + edge_text(value), tuple(roles))
    return Cell(ARROWS[figure.move] + format_price(figure.price, fmt, places), tuple(roles))


def row_cells(
    row: GridRow,
    sides: list[str],
    fmt: OddsFormat,
    fair: tuple[float | None, ...] | None = None,
) -> dict[str, Cell]:
    """Every cell of one bookmaker's row; the name is literal and links only to http(s). With
    `fair` (per side), each price with a fair price shows its edge instead."""
    link = safe_link(row.url)
    muted = ("muted", "stale") if row.stale else ("muted",)
    cells = {
        "book": Cell(clean(row.bookmaker), ("link",) if link else (), link),
        "margin": Cell(margin_text(row.margin), muted),
        "age": Cell(age_text(row.age), muted),
    }
    places = book_places(figure.price for figure in row.prices)  # the book's own precision
    fairs = fair if fair else (None,) * len(sides)
    for side, figure, side_fair in zip(sides, row.prices, fairs, strict=True):
        cells[side] = price_cell(figure, fmt, row.stale, places, side_fair)
    return cells

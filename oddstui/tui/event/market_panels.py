"""Several markets side by side on a wide terminal: which ones fit beside the market the trader
steps through, and the grid's columns and cells for all of them.

Pure code (no textual). The market stepped through with `m` comes first with its bookmaker,
margin and age columns; beside it, as many other markets as fit the width, each as its sides
and a margin: the trader's chosen markets first (the sport's main ones until the trader pins
others), then the rest in reading order. Their columns are keyed `market|side`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from oddstui.book.formats import OddsFormat
from oddstui.book.oddsbook import OddsBook
from oddstui.book.state import LineKey
from oddstui.tui.event.grid_cells import EMPTY, Cell, safe_link
from oddstui.tui.event.market_order import MAIN, SPORT_MAIN
from oddstui.tui.event.price_cells import (
    AGE_WIDTH,
    BOOK_WIDTH,
    MARGIN_WIDTH,
    PRICE_WIDTH,
    WIDE_FROM,
    grid_columns,
    row_cells,
)
from oddstui.tui.event.price_rows import PriceView, line_text, price_view, side_label
from oddstui.tui.kit.columns import Column
from oddstui.tui.text import clean

#: Priority of the first market beside the stepped one (each next one a step higher, so a
#: narrower grid drops the last market first, all its columns at once).
BESIDE_PRIORITY = 10
#: Columns of the stepped market the grid always has besides its sides: name, margin, age.
OWN_COLUMNS_WIDTH = BOOK_WIDTH + 1 + MARGIN_WIDTH + 1 + AGE_WIDTH + 1


def column_key(market: str, side: str) -> str:
    return f"{market}|{side}"


def default_chosen(sport: str | None) -> tuple[str, ...]:
    """The markets shown beside the stepped one until the trader pins others."""
    return SPORT_MAIN.get(sport or "", MAIN)


def beside(markets: Sequence[str], shown: str | None, chosen: Iterable[str]) -> list[str]:
    """The markets to put beside `shown`: the chosen ones the event has, in their order, then
    the others in reading order (`markets` is in reading order)."""
    first = [name for name in dict.fromkeys(chosen) if name in markets and name != shown]
    return first + [name for name in markets if name != shown and name not in first]


def group_width(sides: Sequence[str]) -> int:
    """Cells a market beside the stepped one takes: its sides and its margin, with their gaps."""
    return (PRICE_WIDTH + 1) * len(sides) + MARGIN_WIDTH + 1


@dataclass(frozen=True, slots=True)
class Panels:
    """The stepped market's view, and the markets beside it that fit."""

    main: PriceView
    beside: tuple[PriceView, ...] = ()


def read_panels(
    book: OddsBook,
    event_id: int,
    sport: str | None,
    market: str | None,
    line: LineKey | None,
    now: float,
    *,
    width: int,
    chosen: Sequence[str],
    lines: Mapping[str, LineKey],
    kept: Mapping[str | None, PriceView] | None = None,
    stale_after: float,
    trusted: bool,
    commission: float = 0.0,
) -> Panels:
    """The stepped market (as `price_view`) and, in `width` cells, the markets beside it (each
    on the line in `lines` while the book still has it, else its main line). A market in `kept`
    (unchanged since it was read) is not read again while the book still has it."""
    kwargs = {"stale_after": stale_after, "trusted": trusted, "commission": commission}
    main = price_view(book, event_id, sport, market, line, now, **kwargs)  # type: ignore[arg-type]
    if main.line is None:
        return Panels(main)
    used = OWN_COLUMNS_WIDTH + (PRICE_WIDTH + 1) * len(main.sides)
    found = []
    for name in beside(main.markets, main.market, chosen):
        if used + group_width(("a", "b")) > width:
            break  # not even a two-way market fits
        view = (kept or {}).get(name) or price_view(
            book,
            event_id,
            sport,
            name,
            lines.get(name),
            now,
            markets=main.markets,
            **kwargs,  # type: ignore[arg-type]
        )
        if view.line is None:
            continue
        need = group_width(view.sides)
        if used + need > width:
            break  # keep the reading order: no smaller market jumps ahead
        used += need
        found.append(view)
    return Panels(main, tuple(found))


def panel_columns(panels: Panels, terminal_width: int) -> list[Column]:
    """The stepped market's columns (wider on a wide terminal when it stands alone), then each
    market beside it."""
    alone = 0 if panels.beside else terminal_width
    columns = grid_columns(list(panels.main.sides), alone if alone >= WIDE_FROM else 0)
    for index, view in enumerate(panels.beside):
        priority = BESIDE_PRIORITY + index
        assert view.market is not None
        columns += [
            Column(
                column_key(view.market, side),
                side_label(side),
                PRICE_WIDTH,
                priority=priority,
                justify="right",
            )
            for side in view.sides
        ]
        columns.append(
            Column(
                column_key(view.market, "margin"),
                "Margin",
                MARGIN_WIDTH,
                priority=priority,
                justify="right",
            )
        )
    return columns


def view_label(view: PriceView) -> str:
    """`Spread -0.5`, `Totals 2.5`, `ML`: a market and its line, for a group's heading."""
    if view.market is None:
        return ""
    label = clean(view.market)
    if view.line is not None and view.line != (None, None):
        label += " " + line_text(view.market, view.line)
    return label


def panel_groups(panels: Panels) -> list[tuple[str, str]]:
    """(first column key, label) of each market's group of columns; none for a lone market."""
    if not panels.beside:
        return []
    main = panels.main
    groups = [(main.sides[0], view_label(main))] if main.sides else []
    for view in panels.beside:
        assert view.market is not None
        groups.append((column_key(view.market, view.sides[0]), view_label(view)))
    return groups


#: A market's cells as last made, by market: (its view, format, edges, cells by bookmaker).
CellCache = dict[str, tuple[PriceView, str, bool, dict[str, dict[str, Cell]]]]


def panel_cells(
    panels: Panels,
    fmt: OddsFormat,
    edges: bool = False,
    cache: CellCache | None = None,
) -> dict[str, dict[str, Cell]]:
    """Every row's cells: the bookmakers of any market shown, in name order. A bookmaker that
    does not quote a market has blank cells there (a missing price on a quoted line is `–`).
    With `cache`, a market beside the stepped one whose view is the one last seen (kept, see
    `read_panels`) reuses its cells."""
    main = panels.main
    cells: dict[str, dict[str, Cell]] = {}
    urls: dict[str, str | None] = {}
    for row in main.rows:
        cells[row.bookmaker] = row_cells(row, list(main.sides), fmt, main.fair if edges else None)
    for view in panels.beside:
        assert view.market is not None
        for row in view.rows:
            urls.setdefault(row.bookmaker, row.url)
        for name, group in _group_cells(view, fmt, edges, cache).items():
            cells.setdefault(name, {}).update(group)
    for name in set(cells) - {row.bookmaker for row in main.rows}:
        link = safe_link(urls.get(name))
        cells[name]["book"] = Cell(clean(name), ("link",) if link else (), link)
        cells[name]["age"] = EMPTY
    return {name: cells[name] for name in sorted(cells)}


def _group_cells(
    view: PriceView, fmt: OddsFormat, edges: bool, cache: CellCache | None
) -> dict[str, dict[str, Cell]]:
    """One market's cells beside the stepped one, keyed `market|side`, by bookmaker."""
    assert view.market is not None
    cached = cache.get(view.market) if cache is not None else None
    if cached is not None and cached[0] is view and cached[1:3] == (fmt, edges):
        return cached[3]
    fair = view.fair if edges else None
    groups = {}
    for row in view.rows:
        own = row_cells(row, list(view.sides), fmt, fair)
        groups[row.bookmaker] = {
            column_key(view.market, side): own[side] for side in (*view.sides, "margin")
        }
    if cache is not None:
        cache[view.market] = (view, fmt, edges, groups)
    return groups

"""The Event grid's figures and cells from a real `OddsBook` (pure code, no app)."""

from __future__ import annotations

from typing import Any

import pytest

from oddstui.api.messages import OddsMessage
from oddstui.api.models import parse_market, parse_odds_record
from oddstui.book.oddsbook import OddsBook
from oddstui.config import Settings
from oddstui.tui.event import price_rows
from oddstui.tui.event.crest import decode_png, initials
from oddstui.tui.event.market_order import market_order
from oddstui.tui.event.price_cells import grid_columns, row_cells
from oddstui.tui.event.price_grid import safe_link

EVENT = 7001
#: The settings' default: a live price unchanged for longer is stale.
STALE = Settings().stale_live


def record(books: dict[str, list[dict[str, Any]]], urls: dict[str, str] | None = None) -> Any:
    return parse_odds_record(
        {
            "id": EVENT,
            "home": "Home FC",
            "away": "Away FC",
            "date": "2026-11-21T12:00:00Z",
            "status": "live",
            "sport": {"name": "Football", "slug": "football"},
            "league": {"name": "League", "slug": "league"},
            "bookmakers": books,
            "urls": urls or {},
        }
    )


def ml(home: float, draw: float, away: float) -> dict[str, Any]:
    return {"name": "ML", "odds": [{"home": home, "draw": draw, "away": away}]}


def totals(*lines: tuple[float, float, float]) -> dict[str, Any]:
    return {"name": "Totals", "odds": [{"hdp": h, "over": o, "under": u} for h, o, u in lines]}


def book_with(now: list[float]) -> OddsBook:
    book = OddsBook(clock=lambda: now[0])
    book.install_snapshot(
        [
            record(
                {
                    "Alpha": [ml(2.10, 3.40, 3.60), totals((2.5, 1.95, 1.85), (3.5, 3.1, 1.35))],
                    "Beta": [ml(2.05, 3.50, 3.80), totals((2.5, 1.90, 1.90))],
                    "Gamma": [totals((1.5, 1.30, 3.4))],
                },
                {"Alpha": "https://alpha.example/e/1", "Beta": "N/A"},
            )
        ]
    )
    return book


def move(book: OddsBook, bookie: str, market: dict[str, Any], at: float) -> None:
    quote = parse_market(market)
    book.apply(OddsMessage("updated", 1, None, EVENT, bookie, None, (quote,), at))


def test_markets_lines_and_the_main_line() -> None:
    book = book_with([100.0])
    assert market_order(book.market_names(EVENT)) == ["ML", "Totals"]
    assert book.lines(EVENT, "Totals") == [(1.5, None), (2.5, None), (3.5, None)]
    # 2.5 is quoted by two bookmakers, the others by one.
    assert price_rows.main_line(book, EVENT, "Totals") == (2.5, None)
    assert price_rows.sides_of(book, EVENT, "ML", (None, None)) == ["home", "draw", "away"]
    assert price_rows.line_text("Spread", (-1.5, None)) == "-1.5"
    assert price_rows.line_text("Totals", (2.5, None)) == "2.5"
    assert price_rows.line_text("Player Props", (0.5, "[bold]Kane")) == "[bold]Kane 0.5"


def test_rows_best_margin_and_rows_without_the_line() -> None:
    book = book_with([100.0])
    rows = price_rows.grid_rows(
        book, EVENT, "Totals", (2.5, None), ["over", "under"], 100.0, stale_after=STALE
    )
    by_name = {row.bookmaker: row for row in rows}
    assert list(by_name) == ["Alpha", "Beta", "Gamma"]
    alpha, beta, gamma = by_name["Alpha"], by_name["Beta"], by_name["Gamma"]
    assert [f.best for f in alpha.prices] == [True, False]  # 1.95 over beats 1.90
    assert [f.best for f in beta.prices] == [False, True]  # 1.90 under beats 1.85
    assert alpha.margin == pytest.approx(1 - 1 / (1 / 1.95 + 1 / 1.85))
    assert [f.price for f in gamma.prices] == [None, None] and gamma.margin is None
    assert alpha.url == "https://alpha.example/e/1" and beta.url is None


def test_a_move_flashes_for_a_few_seconds_then_ages() -> None:
    now = [100.0]
    book = book_with(now)
    move(book, "Beta", ml(2.20, 3.50, 3.70), at=101.0)
    sides = ["home", "draw", "away"]

    def beta(at: float) -> price_rows.GridRow:
        rows = price_rows.grid_rows(book, EVENT, "ML", (None, None), sides, at, stale_after=STALE)
        return next(row for row in rows if row.bookmaker == "Beta")

    flashing = beta(102.0)
    assert [f.move for f in flashing.prices] == [1, 0, -1]
    assert flashing.prices[0].best  # 2.20 is now the best home price
    assert flashing.age == pytest.approx(1.0) and not flashing.stale
    assert flashing.changed == 101.0
    later = beta(101.0 + price_rows.FLASH_SECONDS + 0.5)
    assert [f.move for f in later.prices] == [0, 0, 0]
    stale = beta(101.0 + STALE + 1)
    assert stale.stale
    assert beta(102.0).stale is False
    untrusted = price_rows.grid_rows(
        book, EVENT, "ML", (None, None), sides, 102.0, stale_after=STALE, trusted=False
    )
    assert untrusted and all(row.stale for row in untrusted)


def test_cells_in_each_odds_format_with_arrows_roles_and_links() -> None:
    now = [100.0]
    book = book_with(now)
    move(book, "Alpha", ml(2.50, 3.40, 3.00), at=100.5)
    sides = ["home", "draw", "away"]
    rows = price_rows.grid_rows(book, EVENT, "ML", (None, None), sides, 101.0, stale_after=STALE)
    alpha = next(row for row in rows if row.bookmaker == "Alpha")
    decimal = row_cells(alpha, sides, "decimal")
    assert decimal["home"].text == "▲ 2.50" and decimal["home"].roles == ("best", "up")
    assert decimal["away"].text == "▼ 3.00" and "down" in decimal["away"].roles
    assert decimal["draw"].text == "3.40" and decimal["draw"].roles == ()
    assert decimal["book"].link == "https://alpha.example/e/1"
    assert row_cells(alpha, sides, "american")["home"].text == "▲ +150"
    assert row_cells(alpha, sides, "fractional")["home"].text == "▲ 6/4"
    beta = next(row for row in rows if row.bookmaker == "Beta")
    assert row_cells(beta, sides, "decimal")["book"].link is None  # "N/A" is no link
    labels = [column.label for column in grid_columns(sides)]
    assert labels == ["Bookmaker", "Home", "Draw", "Away", "Margin", "Age"]


def test_ages_and_links_and_initials() -> None:
    assert [price_rows.age_text(s) for s in (None, 4.2, 14.9, 59.9, 61, 7200, 90000)] == [
        "–",
        "4s",
        "10s",
        "55s",
        "1m",
        "2h",
        "1d",
    ]
    assert safe_link("https://b.example/x") == "https://b.example/x"
    assert safe_link("javascript:alert(1)") is None
    assert safe_link("https://b.example/\x1b]8;;evil\x07") is None
    assert safe_link(None) is None
    assert initials("Bodø/Glimt") == "BG"
    assert initials("Real Madrid CF") == "RM"
    assert initials("[bold]") == "B"
    assert initials("!!!") == "?"
    assert decode_png(b"not a png") is None

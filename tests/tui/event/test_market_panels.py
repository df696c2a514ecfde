"""Several markets side by side, edges against the fair price and the trader's pinned markets
(pure code on a real `OddsBook`, no app)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from oddstui.book.fair import fair_prices
from oddstui.book.fair_policy import FAIR_METHOD
from oddstui.book.oddsbook import OddsBook
from oddstui.config import ConfigError, Settings, load_settings, save_settings
from oddstui.tui.event.fair_edges import edge_text, fair_line
from oddstui.tui.event.market_choice import chosen_markets, toggle_market
from oddstui.tui.event.market_panels import (
    Panels,
    beside,
    panel_cells,
    panel_columns,
    panel_groups,
    read_panels,
)
from tests.tui.event.test_event_rows import EVENT, STALE, book_with, ml, move, record


def read(book: OddsBook, at: float, **given: Any) -> Panels:
    """`read_panels` of the football `EVENT` on its main market; `given` overrides the rest."""
    options: dict[str, Any] = dict(
        width=118, chosen=(), lines={}, stale_after=STALE, trusted=True, market=None
    )
    options.update(given)
    market = options.pop("market")
    return read_panels(book, EVENT, "football", market, None, at, **options)


def panels_at(width: int, chosen: tuple[str, ...] = ("ML", "Spread", "Totals")) -> Panels:
    now = [100.0]
    return read(book_with(now), now[0], width=width, chosen=chosen)


def test_markets_beside_the_stepped_one_chosen_first_then_reading_order() -> None:
    markets = ["ML", "Spread", "Totals", "Corners", "Player Props Goals"]
    assert beside(markets, "ML", ["Totals", "Gone", "ML"]) == [
        "Totals",
        "Spread",
        "Corners",
        "Player Props Goals",
    ]
    assert beside(markets, "Totals", []) == ["ML", "Spread", "Corners", "Player Props Goals"]


@pytest.mark.parametrize(("width", "beside_markets"), [(78, []), (118, ["Totals"])])
def test_as_many_markets_as_fit_the_width(width: int, beside_markets: list[str]) -> None:
    panels = panels_at(width)
    assert panels.main.market == "ML" and panels.main.rows  # type: ignore[attr-defined]
    assert [view.market for view in panels.beside] == beside_markets  # type: ignore[attr-defined]
    columns = panel_columns(panels, width + 2)  # type: ignore[arg-type]
    assert sum(column.width + 1 for column in columns) <= width
    keys = [column.key for column in columns]
    if beside_markets:
        assert keys[-3:] == ["Totals|over", "Totals|under", "Totals|margin"]
        assert panel_groups(panels) == [("home", "ML"), ("Totals|over", "Totals 2.5")]  # type: ignore[arg-type]
    else:
        assert not any("|" in key for key in keys) and panel_groups(panels) == []  # type: ignore[arg-type]


def test_rows_cover_every_bookmaker_of_any_market_shown() -> None:
    panels = panels_at(118)
    cells = panel_cells(panels, "decimal")  # type: ignore[arg-type]
    assert list(cells) == ["Alpha", "Beta", "Gamma"]  # Gamma quotes Totals only
    assert cells["Alpha"]["home"].text == "2.10"
    assert cells["Alpha"]["Totals|over"].text == "1.95"
    assert cells["Gamma"]["book"].text == "Gamma"
    assert "home" not in cells["Gamma"]  # no ML there: blank, not a made-up price
    assert cells["Gamma"]["Totals|over"].text == "–"  # quotes Totals, but not the 2.5 line


def test_a_sharp_book_makes_the_fair_line_and_each_price_shows_its_edge() -> None:
    now = [100.0]
    book = book_with(now)
    book.install_snapshot(
        [record({"Pinnacle": [ml(2.00, 3.60, 4.00)], "Alpha": [ml(2.20, 3.40, 3.60)]})]
    )
    quotes = book.quotes(EVENT, "ML", (None, None))
    fair, source = fair_line(quotes, ["home", "draw", "away"])
    assert source == "Pinnacle"
    assert fair == pytest.approx(tuple(fair_prices([2.00, 3.60, 4.00], FAIR_METHOD)))
    # Half a sharp market makes no fair line.
    assert fair_line({"Pinnacle": {"home": 2.0}}, ["home", "draw", "away"]) == ((None,) * 3, None)

    panels = read(book, now[0] + 10, market="ML", width=60)  # past the flash
    cells = panel_cells(panels, "decimal", edges=True)
    home = cells["Alpha"]["home"]
    assert fair[0] is not None
    assert home.text == edge_text(2.20 / fair[0] - 1) and home.text.startswith("+")
    assert "value" in home.roles
    away = cells["Alpha"]["away"]
    assert away.text.startswith("-") and "muted" in away.roles
    assert panel_cells(panels, "decimal")["Alpha"]["home"].text == "2.20"  # the toggle off


def test_pinned_markets_are_kept_in_the_settings(tmp_path: Path) -> None:
    settings = Settings()
    assert chosen_markets(settings, "football")[:3] == ("ML", "Spread", "Totals")
    assert toggle_market(settings, "football", "Corners") is True
    assert chosen_markets(settings, "football")[:2] == ("Corners", "ML")
    assert toggle_market(settings, "football", "ML") is False
    assert "ML" not in chosen_markets(settings, "football")
    path = tmp_path / "config.toml"
    save_settings(settings, path)
    assert load_settings(path).event_markets == list(chosen_markets(settings, "football"))
    path.write_text('event_markets = "ML"\n')  # not a list: one line naming what is wrong
    with pytest.raises(ConfigError, match="'event_markets' must be a list of market names"):
        load_settings(path)


def test_a_market_beside_that_did_not_change_is_not_read_again() -> None:
    now = [100.0]
    book = book_with(now)
    first = read(book, now[0])
    (totals,) = first.beside
    move(book, "Alpha", ml(2.5, 3.0, 3.0), now[0])
    again = read(book, now[0], kept={"Totals": totals})
    assert again.beside[0] is totals  # kept as read
    assert again.main.rows[0].prices[0].price == 2.5  # the stepped market is always read
    fresh = read(book, now[0])
    assert fresh.beside[0] is not totals and fresh.beside[0].market == "Totals"

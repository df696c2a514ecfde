"""Settings and bookmakers against the real built-in service: the odds format switch, theme and
slow link kept across a restart, and the account's bookmakers chosen round-trip."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.widgets import Input, SelectionList

from oddstui import config
from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.event.price_grid import PriceGrid
from oddstui.tui.launch import build_app
from oddstui.tui.settings.bookmakers import BookmakersScreen
from oddstui.tui.settings.settings_screen import SettingsScreen
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for
from tests.tui.live_picks import quoted_live
from tests.tui.screen_text import screen_text

AMERICAN = re.compile(r"^(?:[▲▼] ?)?[+-]\d+$")
DECIMAL = re.compile(r"^(?:[▲▼] ?)?\d+\.\d{2,3}$")  # at the book's precision


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    service = start_service("--speed", "20", "--seed", "23", "--updates-per-second", "300")
    yield service
    service.stop()


def get(service: Service, path: str, **params: Any) -> Any:
    response = httpx.get(service.base_url + path, params={**params, "apiKey": DEMO_KEY}, timeout=10)
    response.raise_for_status()
    return response.json()


NO_PRICE = ("", "-", "–")  # a side a bookmaker does not quote now (often, in play)


def price_cells(grid: PriceGrid) -> list[str]:
    # Every price column, the markets beside the stepped one (`market|side`) too.
    sides = [c.key for c in grid.columns if c.key.split("|")[-1] not in ("book", "margin", "age")]
    return [grid.cell_text(row, side).strip() for row in grid.row_keys for side in sides]


async def test_odds_format_switch_changes_the_prices_shown(service: Service, home: Path) -> None:
    app = build_app(service.base_url, DEMO_KEY, config.Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        app.open_event(quoted_live(service))  # not one near its end: its books would stop
        await wait_for(
            lambda: isinstance(app.screen, EventScreen) and bool(app.screen.query(PriceGrid)), pilot
        )
        grid = app.screen.query_one(PriceGrid)
        await wait_for(lambda: len(grid.row_keys) >= 2, pilot, timeout=30)
        shown = [text for text in price_cells(grid) if text not in NO_PRICE]
        odd = [text for text in shown if not DECIMAL.match(text)]
        assert shown and not odd, odd

        await pilot.press("s")
        await wait_for(lambda: isinstance(app.screen, SettingsScreen), pilot)
        await pilot.click("#format-american")
        await wait_for(lambda: app.settings.odds_format == "american", pilot)
        await pilot.press("escape")
        await wait_for(lambda: isinstance(app.screen, EventScreen), pilot)

        def american_everywhere() -> bool:
            texts = [text for text in price_cells(grid) if text not in NO_PRICE]
            return bool(texts) and all(AMERICAN.match(text) for text in texts)

        await wait_for(american_everywhere, pilot, timeout=30)
    assert config.load_settings().odds_format == "american"


async def test_settings_are_saved_and_loaded_at_the_next_start(
    service: Service, home: Path
) -> None:
    app = build_app(service.base_url, DEMO_KEY, config.Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("s")
        await wait_for(lambda: isinstance(app.screen, SettingsScreen), pilot)
        await pilot.click("#theme-oddstui-light")
        await pilot.click("#slow-link")
        await pilot.click("#format-fractional")
        await wait_for(lambda: app.settings.slow_link, pilot)
        assert app.theme == "oddstui-light"
        assert app.has_class("-slow-link")
        assert app.hub.interval == pytest.approx(0.5)
    saved = (home / "config.toml").read_text()
    assert 'theme = "oddstui-light"' in saved and "slow_link = true" in saved

    again = build_app(service.base_url, DEMO_KEY, config.load_settings())
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        assert again.theme == "oddstui-light"
        assert again.settings.odds_format == "fractional"
        assert again.has_class("-slow-link")
        assert again.hub.interval == pytest.approx(0.5)
        await pilot.press("s")
        await wait_for(lambda: isinstance(again.screen, SettingsScreen), pilot)
        assert again.screen.query_one("#format-fractional").value  # type: ignore[attr-defined]


async def test_bookmaker_selection_round_trip_and_the_feed_follows(
    service: Service, home: Path
) -> None:
    before = set(get(service, "/bookmakers/selected")["bookmakers"])
    # The service lists the well-known (busy) books first: one of those quotes what the desk
    # tracks soon enough, where a small book may quote none of it for a long while.
    active = [b["name"] for b in get(service, "/bookmakers") if b.get("active", True)]
    added = next(name for name in active if name not in before)
    app = build_app(service.base_url, DEMO_KEY, config.Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("s")
        await wait_for(lambda: isinstance(app.screen, SettingsScreen), pilot)
        await pilot.press("b")
        await wait_for(lambda: isinstance(app.screen, BookmakersScreen), pilot)
        screen: BookmakersScreen = app.screen  # type: ignore[assignment]
        await wait_for(lambda: bool(screen.names), pilot)
        assert screen.chosen == before

        await pilot.press(*added)  # the filter has the focus
        listing = screen.query_one("#bookmaker-list")
        await wait_for(lambda: listing.option_count >= 1, pilot)  # type: ignore[attr-defined]
        assert listing.get_option_at_index(0).value == added  # type: ignore[attr-defined]
        await pilot.press("enter", "space")
        await wait_for(lambda: added in screen.chosen, pilot)
        await pilot.press("ctrl+s")
        await wait_for(lambda: screen.saved == before | {added}, pilot)

        # The account has it, and the feed now carries its prices.
        assert set(get(service, "/bookmakers/selected")["bookmakers"]) == before | {added}

        def book_has_added() -> bool:
            return app.hub.read(
                lambda book: any(added in book.bookmakers(e) for e in list(book.event_ids()))
            )

        # It shows once one of its prices moves on a desk event: a bound for a loaded machine.
        await wait_for(book_has_added, pilot, timeout=60)


async def test_an_empty_selection_is_refused(service: Service, home: Path) -> None:
    before = get(service, "/bookmakers/selected")["bookmakers"]
    app = build_app(service.base_url, DEMO_KEY, config.Settings(), with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(BookmakersScreen())
        await wait_for(lambda: isinstance(app.screen, BookmakersScreen), pilot)
        screen: BookmakersScreen = app.screen  # type: ignore[assignment]
        await wait_for(lambda: bool(screen.names), pilot)
        # Untick everything through the list, as a trader would (setting `chosen` directly raced
        # the list's own first SelectedChanged message on a loaded machine).
        screen.query_one("#bookmaker-list", SelectionList).deselect_all()
        await wait_for(lambda: not screen.chosen, pilot)
        await pilot.press("ctrl+s")
        await wait_for(lambda: any("at least one" in n.message for n in app._notifications), pilot)
    assert get(service, "/bookmakers/selected")["bookmakers"] == before


async def test_the_exchange_commission_is_set_in_percent_and_saved(
    service: Service, home: Path
) -> None:
    app = build_app(service.base_url, DEMO_KEY, config.Settings())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("s")
        await wait_for(lambda: isinstance(app.screen, SettingsScreen), pilot)
        field = app.screen.query_one("#exchange-commission", Input)
        assert field.value == "5"  # the default, 5 %
        field.value = "150"  # not a commission: refused, the setting stays
        await pilot.pause(0.1)
        assert app.settings.exchange_commission == 0.05
        assert "from 0 to below 100" in str(app.screen.query_one("#commission-hint").render())
        field.value = "2.5"
        await wait_for(lambda: app.settings.exchange_commission == 0.025, pilot)
    assert config.load_settings().exchange_commission == 0.025


async def test_settings_open_with_the_keys_working(service: Service, home: Path) -> None:
    app = build_app(service.base_url, DEMO_KEY, config.Settings(), with_feed=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_for(lambda: isinstance(app.screen, SettingsScreen), pilot)
        assert app.focused is not None and app.focused.id == "odds-format"
        await pilot.press("right", "enter")
        await wait_for(lambda: app.settings.odds_format == "american", pilot)


async def test_space_ticks_at_once_and_ticked_books_carry_a_check_mark(
    service: Service, home: Path
) -> None:
    app = build_app(service.base_url, DEMO_KEY, config.Settings(), with_feed=False)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(BookmakersScreen())
        await wait_for(lambda: isinstance(app.screen, BookmakersScreen), pilot)
        screen: BookmakersScreen = app.screen  # type: ignore[assignment]
        await wait_for(lambda: bool(screen.names), pilot)
        listing = screen.query_one("#bookmaker-list", SelectionList)
        first = listing.get_option_at_index(0).value
        assert first in screen.chosen  # ticked ones come first
        await pilot.press("tab")  # from the filter to the list: no row to pick first
        assert app.focused is listing
        await pilot.press("space")
        await wait_for(lambda: first not in screen.chosen, pilot)

        def marks() -> tuple[int, int]:
            lines = [line for line in screen_text(app).splitlines() if "▐" in line]
            return sum("✓" in line for line in lines), len(lines)

        ticked, rows = marks()
        shown = {listing.get_option_at_index(i).value for i in range(rows)}
        assert ticked == len(shown & screen.chosen) > 0


async def test_the_suspect_threshold_is_set_in_percent_and_saved(
    service: Service, home: Path
) -> None:
    app = build_app(service.base_url, DEMO_KEY, config.Settings(), with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("s")
        await wait_for(lambda: isinstance(app.screen, SettingsScreen), pilot)
        field = app.screen.query_one("#suspect-profit", Input)
        assert field.value == "10"  # the default
        hint = str(app.screen.query_one("#suspect-hint").render())
        assert "boards hide" in hint and "h shows them" in hint  # hidden until h (L8)
        field.value = "-3"  # not a threshold: refused, the setting stays
        await pilot.pause(0.1)
        assert app.settings.suspect_profit == 10.0
        assert "above 0" in str(app.screen.query_one("#suspect-hint").render())
        field.value = "8"
        await wait_for(lambda: app.settings.suspect_profit == 8.0, pilot)
    assert config.load_settings().suspect_profit == 8.0

"""Navigation through every screen, against the real built-in service."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from oddstui.tui.browse.events import EventsScreen
from oddstui.tui.browse.leagues import LeaguesScreen
from oddstui.tui.browse.live import LiveScreen
from oddstui.tui.browse.sports import SportsScreen
from oddstui.tui.browse.watchlist_screen import WatchlistScreen
from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.kit.help_modal import HelpModal
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for
from tests.tui.screen_text import screen_text


async def table_on(app: App[Any], pilot: Pilot[Any], kind: type[Screen[Any]]) -> PatchTable:
    """The table of the screen a key opened, once that screen has mounted it (a loaded
    machine may take a moment)."""
    await wait_for(
        lambda: isinstance(app.screen, kind) and bool(app.screen.query(PatchTable)), pilot
    )
    return app.screen.query_one(PatchTable)


async def test_every_screen_is_reachable_by_keys(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        # The default screen is Live, with live events from the service.
        assert isinstance(app.screen, LiveScreen)

        def live_rows() -> bool:
            return app.screen.query_one(PatchTable).row_count > 0

        await wait_for(live_rows, pilot)

        await pilot.press("1")
        sports = await table_on(app, pilot, SportsScreen)

        def all_sports() -> bool:
            return sports.row_count == 34

        await wait_for(all_sports, pilot)
        # Football's row: live and upcoming counts are numbers, not placeholders.
        await wait_for(lambda: sports.cell_text("football", "upcoming").isdigit(), pilot)
        sports.move_cursor(row=sports.get_row_index("football"))
        await pilot.press("enter")
        leagues = await table_on(app, pilot, LeaguesScreen)

        def leagues_listed() -> bool:
            return leagues.row_count > 1

        await wait_for(leagues_listed, pilot)
        assert leagues.row_keys[0] == "*all*"
        await pilot.press("j", "enter")  # the first real league
        events = await table_on(app, pilot, EventsScreen)
        assert isinstance(app.screen, EventsScreen) and app.screen.league is not None

        def events_listed() -> bool:
            return events.row_count > 0

        await wait_for(events_listed, pilot)
        first = int(events.row_keys[0])
        await pilot.press("enter")
        assert isinstance(app.screen, EventScreen)
        assert app.screen.event_id == first
        await wait_for(lambda: app.hub.board.events[first].home in screen_text(app), pilot)

        await pilot.press("escape")
        assert isinstance(app.screen, EventsScreen)
        await pilot.press("escape", "escape")
        assert isinstance(app.screen, SportsScreen)

        await pilot.press("2")
        assert isinstance(app.screen, LiveScreen)
        await pilot.press("3")
        assert isinstance(app.screen, WatchlistScreen)
        for key, title in (("4", "Arbitrage"), ("5", "Value bets"), ("6", "Dropping odds")):
            await pilot.press(key)
            assert app.screen.heading == title

        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpModal)
        # The modal's text is painted on a later refresh than the one that pushed it.
        await wait_for(lambda: "Quit" in screen_text(app), pilot)
        help_text = screen_text(app)
        for needle in ("Sports", "Live", "Help", "Quit", "Star"):
            assert needle in help_text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpModal)

        # The status bar names the feed state and the request budget.
        await pilot.press("2")
        await wait_for(lambda: "● live" in screen_text(app), pilot)
        assert "req left" in screen_text(app)


async def test_command_palette_jumps_to_a_sport(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(lambda: len(app.hub.board.sports) == 34, pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"Sport: Tennis")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, LeaguesScreen), pilot)
        assert isinstance(app.screen, LeaguesScreen)
        assert app.screen.sport == "tennis"


async def test_j_and_k_move_like_the_arrows(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="sports")
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count == 34, pilot)
        await pilot.press("j", "j")
        assert table.cursor_row == 2
        await pilot.press("k")
        assert table.cursor_row == 1
        await pilot.press("down")
        assert table.cursor_row == 2


async def test_survives_resizing(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 0, pilot)
        for size in ((80, 24), (60, 15), (200, 60), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause(0.2)
            assert app.size == size
            text = screen_text(app)
            # The heading, the table and the status bar are all still on screen.
            assert "Live" in text and "Event" in text and "req left" in text
        await pilot.press("1")
        await pilot.resize_terminal(120, 40)
        await pilot.pause(0.2)
        assert "Sport" in screen_text(app)


async def test_a_screen_key_leaves_an_event_opened_over_that_screen(fast_service: Service) -> None:
    # Issue 21: `2` on an Event opened from Live stayed on the Event.
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        live = app.screen
        assert isinstance(live, LiveScreen)
        table = live.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 0, pilot)
        table.focus()
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, EventScreen), pilot)
        await pilot.press("2")
        await wait_for(lambda: app.screen is live, pilot)
        assert len(app.screen_stack) == 1

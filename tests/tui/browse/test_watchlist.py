"""The watchlist: `w` stars, it survives a restart, and a corrupt file does not stop the app."""

from __future__ import annotations

from pathlib import Path

from oddstui import config
from oddstui.tui.browse.watchlist_screen import WatchlistScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for
from tests.tui.screen_text import screen_text


async def test_starred_event_survives_a_restart(fast_service: Service, home: Path) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 1, pilot)
        await pilot.press("j")
        starred = int(table.row_keys[1])
        await pilot.press("w")
        await wait_for(lambda: table.cell_text(str(starred), "star") == "★", pilot)
        name = app.hub.board.events[starred].home
        await pilot.press("q")
    assert [item.id for item in config.load_watchlist()] == [starred]
    assert (home / "watchlist.toml").exists()

    again = build_app(fast_service.base_url, DEMO_KEY, start_mode="watchlist")
    async with again.run_test(size=(120, 40)) as pilot:
        assert isinstance(again.screen, WatchlistScreen)
        watch = again.screen.query_one(PatchTable)
        await wait_for(lambda: watch.row_keys == [str(starred)], pilot)
        assert name in screen_text(again)
        await pilot.press("w")  # unstar from the watchlist itself
        await wait_for(lambda: watch.row_count == 0, pilot)
    assert config.load_watchlist() == []


async def test_corrupt_watchlist_is_reported_and_set_aside(
    fast_service: Service, home: Path
) -> None:
    (home / "watchlist.toml").write_text("[[event]]\nid = 'not a number'\n")
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.2)
        messages = [notification.message for notification in app._notifications]
        assert any("watchlist.toml.bak" in message for message in messages), messages
        table = app.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 0, pilot)
    assert (home / "watchlist.toml.bak").exists()
    assert not (home / "watchlist.toml").exists()

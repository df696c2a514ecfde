"""Names from the network show literally: Rich markup and escape sequences have no effect."""

from __future__ import annotations

from datetime import UTC, datetime

from textual.app import App, ComposeResult

from oddstui.tui.desk.state import DeskStatus, EventView
from oddstui.tui.kit import event_fields
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.status_bar import FeedBanner
from oddstui.tui.text import plain
from tests.tui.screen_text import screen_segments, screen_text

HOSTILE_HOME = "[bold red]Evil FC[/]"
HOSTILE_AWAY = "Esc\x1b[2J\x1b]8;;http://x\x07United"


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        table = PatchTable()
        table.set_columns([("event", "Event", 50), ("league", "League", 30)])
        yield table
        yield FeedBanner()


def hostile_event() -> EventView:
    return EventView(
        id=1,
        sport_slug="football",
        sport_name="Football",
        league_slug="x",
        league_name="[link=http://evil]L[/link]",
        home=HOSTILE_HOME,
        away=HOSTILE_AWAY,
        start=datetime(2026, 11, 21, tzinfo=UTC),
        status="live",
    )


async def test_markup_and_escapes_in_names_are_shown_literally() -> None:
    app = TableApp()
    async with app.run_test(size=(100, 10)) as pilot:
        table = app.query_one(PatchTable)
        event = hostile_event()
        # The cursor row is drawn bold; keep it on a harmless row.
        table.sync_row("0", {"event": plain("Plain v Row")})
        cells = {"event": event_fields.event_text(event), "league": event_fields.league_text(event)}
        table.sync_row("1", cells)
        await pilot.pause()
        text = screen_text(app)
        assert "[bold red]Evil FC[/] v Esc[2J]8;;http://xUnited" in text
        assert "[link=http://evil]L[/link]" in text
        assert "\x1b" not in text and "\x07" not in text
        for segment, style in screen_segments(app):
            if "Evil" in segment:
                assert "bold" not in style and "red" not in style


async def test_feed_detail_is_plain_in_the_banner() -> None:
    app = TableApp()
    async with app.run_test(size=(120, 10)) as pilot:
        app.query_one(FeedBanner).show(DeskStatus(state="offline", detail="[b]boom\x1b[0m"))
        await pilot.pause()
        assert "([b]boom[0m)" in screen_text(app)

"""Live scores and clocks against the real service: patched in place, ticking locally."""

from __future__ import annotations

import time

import httpx
import pytest

from oddstui.book.match_clock import DOWN, RACE, sport_clock
from oddstui.tui.browse.live import LiveScreen
from oddstui.tui.desk import hub
from oddstui.tui.desk.hub import FLUSH_HZ
from oddstui.tui.kit import event_fields
from oddstui.tui.kit.event_fields import ESTIMATED
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for


def seconds(clock: str) -> int:
    """The seconds of a clock that shows them: `Q4 7:12` -> 432, `14:05~` -> 845 (`~`: the
    desk estimates the clock until the feed has told it one)."""
    minutes, secs = clock.removesuffix(ESTIMATED).split(" ")[-1].split(":")[-2:]
    return int(minutes) * 60 + int(secs)


async def test_a_goal_changes_the_score_in_place(
    fast_service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No REST refresh of live events during the test: a new score can only come from the feed.
    monkeypatch.setattr(hub, "LIVE_REFRESH", 3600.0)
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.screen, LiveScreen)
        table = app.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 0 and app.hub.status.state == "live", pilot)
        before = {key: table.cell_text(key, "score") for key in table.row_keys}
        rows_before = {key: table.rows[key] for key in table.row_keys}  # type: ignore[index]

        def a_score_moved() -> bool:
            return any(
                key in before
                and table.cell_text(key, "score") not in (before[key], "")
                and not table.cell_text(key, "score").endswith("?")
                for key in table.row_keys
            )

        await wait_for(a_score_moved, pilot, timeout=30)
        moved = [
            key
            for key in table.row_keys
            if key in before and table.cell_text(key, "score") != before[key]
        ]
        key = moved[0]
        event = app.hub.board.events[int(key)]
            # A red card stands beside the score as a red square a card (the built-in's football).
        shown = table.cell_text(key, "score").strip("■")
        assert shown == f"{event.score_home}-{event.score_away}"
        # Patched, not rebuilt: the row object of an event that stayed live is the same one.
        if key in rows_before and key in table.rows:  # type: ignore[operator]
            assert table.rows[key] is rows_before[key]  # type: ignore[index]


async def test_match_clocks_advance_every_second(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(PatchTable)

        def running_clock() -> str | None:
            """A running match whose clock shows seconds (a period counting down, a race)."""
            for key in table.row_keys:
                event = app.hub.board.events.get(int(key))
                if event and event.clock and event.clock.running:
                    style = sport_clock(event.sport_slug).style
                    if style in (DOWN, RACE) and ":" in table.cell_text(key, "clock"):
                        return key
            return None

        await wait_for(running_clock, pilot)
        key = running_clock()
        assert key is not None
        first = table.cell_text(key, "clock")
        watched = {"key": key, "first": first}

        def moved_two_seconds() -> bool:
            """The clock moved two seconds its sport's way; a clock whose period ended
            meanwhile (`Break`) is swapped for another running one."""
            shown = table.cell_text(watched["key"], "clock")
            if ":" not in shown:
                other = running_clock()
                if other is not None:
                    watched.update(key=other, first=table.cell_text(other, "clock"))
                return False
            event = app.hub.board.events[int(watched["key"])]
            before = seconds(watched["first"])
            if sport_clock(event.sport_slug).style == DOWN:
                return before - seconds(shown) >= 2
            return seconds(shown) - before >= 2

        # The cell is rewritten on whole-second ticks (of service time).
        await wait_for(moved_two_seconds, pilot, 30)


async def test_hidden_screen_catches_up_once_shown(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        live = app.screen
        assert isinstance(live, LiveScreen)
        table = live.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 0 and app.hub.status.state == "live", pilot)
        await pilot.press("1")  # Live is now hidden
        written = table.cells_written
        await wait_for(lambda: live.missed_changes, pilot, timeout=20)
        # Hidden: changes were noted, not painted.
        assert table.cells_written == written
        await pilot.press("2")
        assert app.screen is live
        await pilot.pause(0.2)
        assert not live.missed_changes

        def scores_shown() -> bool:
            trusted = app.hub.status.trustworthy
            return all(
                table.cell_text(key, "score")
                == event_fields.score_with_cards(app.hub.board.events[int(key)], trusted).plain
                for key in table.row_keys
            )

        # The fast service keeps scoring: a goal can reach the board a moment before the
        # table's next patch, so the shown scores must match at one of the next few ticks.
        await wait_for(scores_shown, pilot, timeout=30)


async def test_changes_are_published_a_few_times_a_second(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(lambda: app.hub.status.state == "live", pilot)
        before, messages = app.hub.flushes, app.hub.feed.messages  # type: ignore[union-attr]
        started = time.monotonic()
        await pilot.pause(3.0)
        published = app.hub.flushes - before
        received = app.hub.feed.messages - messages  # type: ignore[union-attr]
        # One change set per flush interval at most, however many messages arrived: over the
        # time that really passed (a loaded machine stretches the pause).
        assert published <= (time.monotonic() - started) * FLUSH_HZ + 1, published
        assert received > published, (received, published)


async def test_prices_never_wipe_a_live_score() -> None:
    """Odds messages for an event say nothing of its score: they must not turn the score the
    REST listing gave into an empty 0-0 (as they once did, for most live events). A slow world,
    so that many events get their first prices after the live listing is in."""
    service = start_service("--seed", "11", "--updates-per-second", "40")
    try:
        await _check_scores_survive_prices(service)
    finally:
        service.stop()


async def _check_scores_survive_prices(service: Service) -> None:
    app = build_app(service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        board = app.hub.board
        await wait_for(lambda: app.hub.live_loaded and app.hub.status.state == "live", pilot)
        start = app.hub.status.last_seq or 0
        # Let odds flow for a while: events keep getting their first prices.
        await wait_for(lambda: (app.hub.status.last_seq or 0) > start + 200, pilot, timeout=30)
        await pilot.pause(0.5)
        listed = httpx.get(
            f"{service.base_url}/events/live", params={"apiKey": DEMO_KEY}, timeout=10
        ).json()
        scored = {item["id"] for item in listed if item["scores"]["periods"]}
        shown = [board.events[i] for i in scored if i in board.events and i in board.live_ids]
        assert shown, "no live event with period scores to check"
        wiped = [e.id for e in shown if not e.periods and (e.score_home, e.score_away) == (0, 0)]
        assert not wiped, f"scores wiped to an empty 0-0: {wiped}"

"""Honesty: offline, stale and replaced feeds are said plainly and dim what may be old."""

from __future__ import annotations

from websockets.sync.client import connect

from oddstui.api.feed import FeedTimings
from oddstui.api.feed_url import FeedFilters, feed_url
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, start_service, ticks_pass, wait_for
from tests.tui.screen_text import screen_text


async def test_offline_when_the_service_stops() -> None:
    service = start_service("--speed", "60", "--seed", "5")
    try:
        app = build_app(service.base_url, DEMO_KEY)
        async with app.run_test(size=(120, 40)) as pilot:
            table = app.screen.query_one(PatchTable)
            await wait_for(lambda: app.hub.status.state == "live" and table.row_count > 0, pilot)
            assert not app.screen.has_class("-stale")
            service.stop()
            await wait_for(lambda: "Offline:" in screen_text(app), pilot, timeout=30)
            assert "● offline" in screen_text(app)
            assert app.screen.has_class("-stale")
            # The whole reason is there at 120 columns, wrapped, never cut off.
            await wait_for(lambda: "cannot connect" in app.hub.status.detail, pilot, timeout=30)
            await pilot.pause(0.3)
            reason = app.hub.status.detail.split(";")[0]  # without the changing countdown
            assert len(reason) > 60  # long enough that the banner needs a second line
            banner = screen_text(app).split(" Live ")[0]
            assert reason in " ".join(line.strip() for line in banner.splitlines())
            # No score is shown as current: every live score carries the "?" mark.
            scores = [table.cell_text(key, "score") for key in table.row_keys]
            assert scores and all(score.endswith("?") for score in scores if score)
    finally:
        service.stop()


async def test_stale_when_no_frames_arrive() -> None:
    service = start_service("--speed", "1", "--seed", "5", "--updates-per-second", "0.05")
    try:
        timings = FeedTimings(stale_after=1.0)
        app = build_app(service.base_url, DEMO_KEY, feed_timings=timings)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(lambda: "Stale:" in screen_text(app), pilot, timeout=30)
            assert "● stale" in screen_text(app)
            assert app.screen.has_class("-stale")
    finally:
        service.stop()


async def test_replaced_by_a_second_connection_and_taken_back() -> None:
    service = start_service("--speed", "60", "--seed", "5")
    try:
        app = build_app(service.base_url, DEMO_KEY)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(lambda: app.hub.status.state == "live", pilot)
            url = feed_url(service.base_url, DEMO_KEY, FeedFilters(), None)
            with connect(url) as other:
                other.recv(timeout=5)  # its welcome
                await wait_for(lambda: "Replaced:" in screen_text(app), pilot, timeout=30)
                assert "● replaced" in screen_text(app)
                assert app.screen.has_class("-stale")
            # The other client is gone, yet it never reconnects on its own.
            await ticks_pass(app, pilot)
            assert app.hub.status.state == "replaced"
            await pilot.press("r")
            await wait_for(lambda: app.hub.status.state == "live", pilot, timeout=30)
            # The hub's state changes first; the screen draws it on the change it publishes.
            await wait_for(lambda: "Replaced:" not in screen_text(app), pilot, timeout=30)
            await wait_for(lambda: "● live" in screen_text(app), pilot, timeout=30)
    finally:
        service.stop()


async def test_unreachable_service_is_a_state_and_one_notification() -> None:
    import socket

    with socket.socket() as probe:  # a free port with nothing listening on it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = build_app(f"http://127.0.0.1:{port}/v3", DEMO_KEY, start_mode="sports")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(lambda: "offline" in screen_text(app), pilot, timeout=30)
        await pilot.press("2")
        await wait_for(lambda: "Could not load" in screen_text(app), pilot, timeout=30)
        errors = [n for n in app._notifications if n.severity == "error"]
        assert len(errors) == 1, [n.message for n in errors]
        assert "Traceback" not in screen_text(app)

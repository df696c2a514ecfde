"""A desk behind `oddstui relay` says so in its status bar, with the relay's upstream state."""

from __future__ import annotations

from pathlib import Path

from oddstui.tui.kit.status_bar import StatusBar
from oddstui.tui.launch import build_app
from tests.relay.relaying import DESK_KEYS, launch_relay
from tests.serving import terminate
from tests.tui.conftest import DEMO_KEY, start_service, wait_for
from tests.tui.screen_text import screen_text


async def test_the_status_bar_shows_the_relay_and_its_upstream_state(tmp_path: Path) -> None:
    service = start_service("--speed", "60", "--seed", "5")
    relay, base = launch_relay(service.base_url, DEMO_KEY, tmp_path)
    try:
        app = build_app(base, DESK_KEYS[0])
        async with app.run_test(size=(120, 40)) as pilot:
            bar = app.screen.query_one(StatusBar)
            await wait_for(lambda: "● live  via relay, upstream live" in screen_text(app), pilot)
            assert bar.has_class("-healthy")
            service.stop()  # the relay's upstream goes; the desk's link to the relay stays
            await wait_for(lambda: "via relay, upstream offline" in screen_text(app), pilot, 30)
            assert app.hub.status.state == "live"
            assert bar.has_class("-warning") and not bar.has_class("-healthy")
    finally:
        terminate(relay)
        service.stop()


async def test_a_desk_on_the_service_itself_shows_no_relay(tmp_path: Path) -> None:
    service = start_service("--speed", "60", "--seed", "5")
    try:
        app = build_app(service.base_url, DEMO_KEY)
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(lambda: app.hub.status.state == "live", pilot)
            await pilot.pause(0.3)
            assert "relay" not in screen_text(app) and app.hub.status.relay is None
    finally:
        service.stop()


async def test_with_the_relay_down_the_status_bar_does_not_vouch_for_its_upstream(
    tmp_path: Path,
) -> None:
    # Issue 21: the relay stopped, the desk said `offline  via relay, upstream live`.
    service = start_service("--speed", "60", "--seed", "5")
    relay, base = launch_relay(service.base_url, DEMO_KEY, tmp_path)
    try:
        app = build_app(base, DESK_KEYS[0])
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(lambda: "● live  via relay, upstream live" in screen_text(app), pilot)
            terminate(relay)  # the desk's link goes; the upstream service stays up
            await wait_for(lambda: app.hub.status.state != "live", pilot, 30)
            await wait_for(lambda: "upstream unknown" in screen_text(app), pilot, 30)
            assert "upstream live" not in screen_text(app)
            assert not app.screen.query_one(StatusBar).has_class("-healthy")
    finally:
        terminate(relay)
        service.stop()

"""Watchlist alerts against the real built-in service at high speed: goals and status changes
fire exactly once each, and a price threshold set in the modal is kept, and never fires on its
creation (it already holds: no crossing)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui import config
from oddstui.book.match_clock import scoring_word
from oddstui.tui.alerts.rule_modal import AlertRuleModal
from oddstui.tui.alerts.rules import PriceRule, Throttle
from oddstui.tui.alerts.store import rules_path
from oddstui.tui.browse.watchlist_screen import WatchlistScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, feed_moves_on, start_service, wait_for


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    """90 simulated minutes in 45 s: goals, kick-offs and final whistles every few seconds."""
    service = start_service("--speed", "120", "--seed", "17", "--updates-per-second", "300")
    yield service
    service.stop()


def get(service: Service, path: str, **params: Any) -> Any:
    response = httpx.get(service.base_url + path, params={**params, "apiKey": DEMO_KEY}, timeout=10)
    response.raise_for_status()
    return response.json()


def star(events: list[dict[str, Any]], path: Path) -> None:
    config.save_watchlist(
        [
            config.WatchedEvent(
                e["id"], e["home"], e["away"], e["sport"]["slug"], e["league"]["name"], e["date"]
            )
            for e in events
        ],
        path,
    )


async def test_goals_and_status_changes_alert_exactly_once(service: Service, home: Path) -> None:
    live = get(service, "/events/live")
    star(live, config.watchlist_path())
    app = build_app(service.base_url, DEMO_KEY, config.Settings(), start_mode="watchlist")
    async with app.run_test(size=(120, 40)) as pilot:
        # Let every alert through, so that what fired is all that was seen.
        app.alerts.throttle = Throttle(burst=10_000, every=0.001)
        kinds = lambda: Counter(alert.kind for alert in app.alerts.fired)  # noqa: E731
        await wait_for(lambda: kinds()["goal"] >= 1 and kinds()["status"] >= 1, pilot, timeout=30)
        await pilot.pause(2.0)

        fired = list(app.alerts.fired)
        keys = [alert.key for alert in fired]
        assert len(keys) == len(set(keys)), Counter(keys).most_common(3)
        watched = {event["id"] for event in live}
        assert {alert.event_id for alert in fired} <= watched
        totals: dict[int, list[int]] = {}
        for alert in fired:
            if alert.kind == "goal":
                _, event_id, home_goals, away_goals = alert.key
                totals.setdefault(event_id, []).append(home_goals + away_goals)
            elif alert.kind == "status":
                assert alert.key[2] != "live"  # every starred event was live already
        # Each event's scores were announced as they grew, never one twice.
        # may be empty: no goal may be scored in the window; the alerts' keys are checked above
        assert all(seq == sorted(set(seq)) for seq in totals.values()), totals
        shown = [n.message for n in app._notifications]
        # Each score is named as its sport scores: a goal, a basket, a set, a game...
        sports = {event["id"]: event["sport"]["slug"] for event in live}
        for alert in fired:
            if alert.kind == "goal":
                word = scoring_word(sports[alert.event_id]).capitalize()
                assert alert.title == word and alert.message.startswith(f"{word}: ")
        assert {alert.message for alert in fired if alert.kind == "goal"} & set(shown)
        # A status alert per event and new status, never the same twice.
        statuses = [(a.event_id, a.key[2]) for a in fired if a.kind == "status"]
        assert len(statuses) == len(set(statuses))


async def test_a_price_threshold_set_in_the_modal_fires_once_and_is_kept(
    service: Service, home: Path
) -> None:
    # At 120x a match lasts 45 s: one already live can finish (or have its home price
    # suspended) before a loaded machine has the desk up. So the third-next football kick-off,
    # quoted by five books or more: about half a minute of prices before it and 45 s after.
    pending = sorted(
        (
            e
            for e in get(service, "/events", sport="football", status="pending")
            if (e.get("bookmakerCount") or 0) >= 5
        ),
        key=lambda e: e["date"],
    )
    assert pending, "no quoted football kick-off ahead"
    event = pending[min(2, len(pending) - 1)]
    star([event], config.watchlist_path())
    app = build_app(service.base_url, DEMO_KEY, config.Settings(), start_mode="watchlist")
    async with app.run_test(size=(120, 40)) as pilot:
        assert isinstance(app.screen, WatchlistScreen)
        table = app.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_keys == [str(event["id"])], pilot)
        await pilot.press("a")
        await wait_for(lambda: isinstance(app.screen, AlertRuleModal), pilot)
        await pilot.press("1", ".", "0", "1", "enter")  # home at 1.01 or more: it always holds
        await wait_for(lambda: isinstance(app.screen, WatchlistScreen), pilot)
        rule = PriceRule(event["id"], "ML", "home", 1.01, above=True)
        assert app.alerts.rules.prices == [rule]

        prices = lambda: [a for a in app.alerts.fired if a.kind == "price"]  # noqa: E731
        await wait_for(lambda: app.alerts.rules.holding(rule) is True, pilot, timeout=60)
        await feed_moves_on(app, pilot)  # more price changes arrive; the rule still holds
        assert prices() == []  # it held when made: no crossing, no alert

        app.alerts.add_price_rule(PriceRule(event["id"], "ML", "home", 999.0))
        await feed_moves_on(app, pilot)
        assert prices() == []  # nobody offers 999

    path = rules_path(config.watchlist_path())
    assert path.exists()
    again = build_app(service.base_url, DEMO_KEY, config.Settings(), with_feed=False)
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.1)
        assert again.alerts.rules.prices == [rule, PriceRule(event["id"], "ML", "home", 999.0)]


async def test_a_bad_threshold_is_refused_inline(service: Service, home: Path) -> None:
    live = get(service, "/events/live")[:1]
    star(live, config.watchlist_path())
    app = build_app(
        service.base_url, DEMO_KEY, config.Settings(), start_mode="watchlist", with_feed=False
    )
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count == 1, pilot)
        await pilot.press("a")
        await wait_for(lambda: isinstance(app.screen, AlertRuleModal), pilot)
        await pilot.press("0", ".", "5", "enter")
        await pilot.pause(0.2)
        assert isinstance(app.screen, AlertRuleModal)
        error = app.screen.query_one(".alert-error")
        assert "above 1" in str(error.render())
        await pilot.press("escape")
        await wait_for(lambda: isinstance(app.screen, WatchlistScreen), pilot)
    assert not rules_path(config.watchlist_path()).exists()

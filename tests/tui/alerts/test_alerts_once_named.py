"""Alerts a trader relies on (issue 21), against the real built-in service at 80x24: a rule
fires on a crossing (never on its creation), once, and names the event; at 80x24 it shows on
one line of the status bar (no toast); full-time fires once per starred match; the session's
alerts export as data."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui import config
from oddstui.tui.alerts.alert_export import write_alerts
from oddstui.tui.alerts.rules import PriceRule, Throttle
from oddstui.tui.kit.status_bar import StatusBar
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, feed_moves_on, start_service, wait_for
from tests.tui.screen_text import screen_text

pytestmark = pytest.mark.slow  # handed out first (tests/conftest.py)


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    # 60x: a live football match reaches full time within two minutes. 200 updates a second:
    # at 60x the default 50 is under one a simulated second, too few for the books to follow a
    # score before their deadlines take the markets down (the price to cross with them).
    service = start_service("--speed", "60", "--seed", "7", "--updates-per-second", "200")
    yield service
    service.stop()


def live_football(service: Service, count: int) -> list[dict[str, Any]]:
    response = httpx.get(service.base_url + "/events/live", params={"apiKey": DEMO_KEY}, timeout=10)
    response.raise_for_status()
    events = [e for e in response.json() if e["sport"]["slug"] == "football"]
    assert events, "no live football match"
    events.sort(key=lambda e: e["date"], reverse=True)  # the latest kick-off first
    return events[:count]


def star(events: list[dict[str, Any]]) -> None:
    watched = [
        config.WatchedEvent(
            e["id"], e["home"], e["away"], e["sport"]["slug"], e["league"]["name"], e["date"]
        )
        for e in events
    ]
    config.save_watchlist(watched, config.watchlist_path())


async def test_a_crossing_fires_once_names_the_event_and_stacks_in_the_status_bar(
    service: Service, tmp_path: Path
) -> None:
    events = live_football(service, 6)
    star(events)
    titles = {e["id"]: f"{e['home']} v {e['away']}" for e in events}
    app = build_app(service.base_url, DEMO_KEY, config.Settings(), start_mode="watchlist")
    async with app.run_test(size=(80, 24)) as pilot:
        app.alerts.throttle = Throttle(burst=10_000, every=0.001)
        await wait_for(lambda: app.hub.status.state == "live", pilot, timeout=30)
        first = events[0]  # the latest kick-off: still priced while the test runs

        def best_home() -> float | None:
            best = app.hub.read(lambda book: book.best(first["id"], "ML", (None, None), ["home"]))
            return best["home"][0] if best else None

        await wait_for(lambda: best_home() is not None, pilot, timeout=30)
        now = best_home()
        assert now is not None
        # A rule never fires on its creation: it needs a crossing. At 60x the home price
        # moves within seconds, one way or the other: a rule each way, just beyond it.
        rules = [
            PriceRule(first["id"], "ML", "home", round(now * 1.005, 3), above=True),
            PriceRule(first["id"], "ML", "home", round(now * 0.995, 3), above=False),
        ]
        for made in rules:
            app.alerts.add_price_rule(made)

        def price_alerts() -> list[Any]:
            return [alert for alert in app.alerts.fired if alert.kind == "price"]

        await wait_for(lambda: all(app.alerts.rules.holding(r) is False for r in rules), pilot)
        await wait_for(lambda: bool(price_alerts()), pilot, timeout=60)
        rule = price_alerts()[0].rule
        assert isinstance(rule, PriceRule)
        alert = price_alerts()[0]
        assert alert.message.startswith(f"{titles[first['id']]}: {rule.describe()}")
        assert alert.event == titles[first["id"]]
        # At 80x24 no toast covers the board: the alert is one line of the status bar.
        bar = app.screen.query_one(StatusBar)

        def bar_shows_the_latest() -> bool:
            latest = app.alerts.history[-1].alert.message
            return "⚑" in str(bar.render()) and latest[:12] in str(bar.render())

        await wait_for(bar_shows_the_latest, pilot, timeout=30)
        assert not app._notifications, [n.message for n in app._notifications]
        assert "⚑" in screen_text(app).splitlines()[-2]  # the status bar, above the keys

        # Full time: once per starred match that reaches it, naming the match.
        def full_times() -> list[Any]:
            return [a for a in app.alerts.fired if a.kind == "fulltime"]

        await wait_for(lambda: bool(full_times()), pilot, timeout=150)
        await feed_moves_on(app, pilot, 2000)  # the feed moves on: one firing per crossing
        keys = [alert.key for alert in price_alerts()]
        assert len(keys) == len(set(keys))
        ended = [a.event_id for a in full_times()]
        assert len(ended) == len(set(ended))
        # non-empty: waited above until full_times() held one
        for ft in full_times():
            assert ft.message.startswith(f"{titles[ft.event_id]}: Full-time ")
            assert ft.event == titles[ft.event_id]

        # The session's alerts as data: numbers as numbers, every one naming its event.
        history = app.alerts.history
        path = write_alerts(tmp_path, history, "json", datetime.now())
        records = json.loads(path.read_text())
        assert len(records) == len(history) >= 2
        for record in records:
            assert isinstance(record["event_id"], int) and isinstance(record["at_unix"], float)
            assert record["event"] and record["message"]
        price = next(r for r in records if r["kind"] == "price")
        assert isinstance(price["value"], float) and rule.holds(price["value"])
        assert price["rule"] == rule.describe()
        path = write_alerts(tmp_path, history, "csv", datetime.now())
        rows = list(csv.DictReader(path.open()))
        assert len(rows) == len(records)
        assert rule.holds(float(next(r for r in rows if r["kind"] == "price")["value"]))

"""Stable identity against the real built-in service (run in-process, as the desk runs it): a
starred match stays starred across desk restarts (the world is a function of its seed and the
time, so no file keeps it); an entry whose id names no match or another match is found again by
its names (its alert rules follow it), or shown as gone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui import config
from oddstui.server.accounts import DEMO_KEY
from oddstui.service.assembly import Options
from oddstui.service.embedded import EmbeddedService, start_embedded
from oddstui.tui.alerts.rules import AlertRules, PriceRule
from oddstui.tui.alerts.store import load_rules, rules_path, save_rules
from oddstui.tui.desk.state import ChangeSet
from oddstui.tui.launch import build_app
from tests.tui.conftest import wait_for
from tests.tui.screen_text import screen_text

pytestmark = pytest.mark.timeout(120)


def football(service: EmbeddedService) -> list[dict[str, Any]]:
    response = httpx.get(
        service.base_url + "/events",
        params={"apiKey": DEMO_KEY, "sport": "football", "limit": 5000},
        timeout=10,
    )
    response.raise_for_status()
    return list(response.json())


async def run_desk(service: EmbeddedService, home: Path, until: Any) -> Any:
    app = build_app(service.base_url, DEMO_KEY, with_feed=False, watchlist_path=home / "w.toml")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(lambda: app.hub.board.sports, pilot, timeout=30)
        await until(app, pilot)
    return app


async def test_a_starred_match_is_still_starred_after_the_desk_restarts(home: Path) -> None:
    chosen: dict[str, Any] = {}

    async def star(app: Any, pilot: Any) -> None:
        await app.hub.load_events("football", None)
        event = next(e for e in app.hub.board.events.values() if e.status == "pending")
        chosen.update(id=event.id, home=event.home, away=event.away)
        assert app.hub.toggle_watch(event.id)

    async def still_starred(app: Any, pilot: Any) -> None:
        await app.hub.load_watched()
        assert app.hub.is_watched(chosen["id"]) and not app.hub.watch.gone
        event = app.hub.board.events[chosen["id"]]
        assert (event.home, event.away) == (chosen["home"], chosen["away"])

    for check in (star, still_starred):
        service = start_embedded(Options(seed=1))  # what `oddstui` with no key does
        try:
            await run_desk(service, home, check)
        finally:
            service.stop()
        time.sleep(1.0)  # a later start, at the wall clock's now
    assert not list(home.glob("builtin-world*")), "the world needs no file to keep its ids"


async def test_an_id_naming_another_match_is_matched_again_or_gone(home: Path) -> None:
    second = start_embedded(Options(seed=3))
    try:
        after = {e["id"]: e for e in football(second)}
        assert after
        # An entry kept under an id this world does not use (as from another service): the
        # match it names is found again under its id here.
        new = next(i for i, e in after.items() if e["status"] == "pending")
        match = after[new]
        old = max(after) + 7919
        assert old not in after
        elsewhere = next(i for i in after if i != new)
        entries = [
            config.WatchedEvent(
                old,
                match["home"],
                match["away"],
                "football",
                match["league"]["name"],
                match["date"],
            ),
            config.WatchedEvent(
                elsewhere, "Nobody FC", "Nowhere Town", "football", "", match["date"]
            ),
        ]
        config.save_watchlist(entries, home / "w.toml")
        rule = PriceRule(old, "ML", "home", 9.0)
        save_rules_for(home, rule)

        async def found_again(app: Any, pilot: Any) -> None:
            await app.hub.load_watched()
            assert app.hub.is_watched(new) and not app.hub.is_watched(old)
            assert not app.hub.is_watched(elsewhere) and app.hub.watch.gone == {elsewhere}
            app.alerts.check(ChangeSet())  # the rules follow the match to its new id
            app.switch_mode("watchlist")
            await wait_for(lambda: "gone" in screen_text(app), pilot, timeout=30)

        await run_desk(second, home, found_again)
        saved = config.load_watchlist(home / "w.toml")
        assert [item.id for item in saved] == [new, elsewhere]
        assert [r.event_id for r in load_rules(rules_path(home / "w.toml")).prices] == [new]
    finally:
        second.stop()


def save_rules_for(home: Path, rule: PriceRule) -> None:
    rules = AlertRules()
    rules.add_price(rule)
    save_rules(rules, rules_path(home / "w.toml"))

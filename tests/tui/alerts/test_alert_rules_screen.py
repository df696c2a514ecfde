"""Alert rules against the real built-in service: a rule on what the event lacks is refused
with a clear message; rules are listed with their last firing, reopened filled in, edited and
deleted; the session's alerts are listed with time, rule and price."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui import config
from oddstui.tui.alerts.rule_modal import AlertRuleModal
from oddstui.tui.alerts.rules import Alert, PriceRule
from oddstui.tui.alerts.rules_screen import AlertRulesScreen
from oddstui.tui.alerts.store import load_rules, rules_path
from oddstui.tui.browse.watchlist_screen import WatchlistScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, ticks_pass, wait_for
from tests.tui.screen_text import screen_text


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    service = start_service("--speed", "20", "--seed", "23")
    yield service
    service.stop()


def starred_football_match(service: Service) -> dict[str, Any]:
    """A live football match with several books, starred in the test's watchlist."""
    response = httpx.get(service.base_url + "/events/live", params={"apiKey": DEMO_KEY})
    live = [
        e
        for e in response.json()
        if e["sport"]["slug"] == "football" and (e.get("bookmakerCount") or 0) >= 5
    ]
    event = min(live, key=lambda e: (e.get("clock") or {}).get("minute", 90))
    watched = config.WatchedEvent(
        event["id"],
        event["home"],
        event["away"],
        "football",
        event["league"]["name"],
        event["date"],
    )
    config.save_watchlist([watched], config.watchlist_path())
    return event


async def open_modal(app: Any, pilot: Any) -> AlertRuleModal:
    table = app.screen.query_one(PatchTable)
    await wait_for(lambda: table.row_count == 1, pilot)
    await pilot.press("a")
    await wait_for(lambda: isinstance(app.screen, AlertRuleModal), pilot)
    modal = app.screen
    await wait_for(lambda: modal.offered is not None, pilot, timeout=30)
    return modal


async def fill(pilot: Any, modal: AlertRuleModal, **values: str) -> None:
    for field, value in values.items():
        modal.query_one(f"#alert-{field}").value = value
    modal.query_one("#alert-threshold").focus()
    await pilot.press("enter")
    await pilot.pause(0.2)


async def test_a_rule_on_a_market_or_side_the_event_lacks_is_refused(
    service: Service, home: Path
) -> None:
    event = starred_football_match(service)
    # No feed: what the event offers comes from one GET /odds.
    app = build_app(service.base_url, DEMO_KEY, config.Settings(), start_mode="watchlist",
                    with_feed=False)  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        modal = await open_modal(app, pilot)
        hint = str(modal.query_one(".alert-hint").render())
        assert "red cards always alert" in hint, hint  # the built-in service sends them:
        assert "redCards" in event["scores"], event["scores"]
        assert "built-in service's scores carry red cards" in hint
        assert modal.offered and "ML" in modal.offered
        assert "Double Chance" not in modal.offered
        await fill(pilot, modal, market="Double Chance", side="home", threshold="2")
        assert isinstance(app.screen, AlertRuleModal)
        error = str(modal.query_one(".alert-error").render())
        assert "this event has no market 'Double Chance': it offers" in error
        assert "ML" in error
        totals_line = next(h for h in sorted(modal.offered["Totals"]) if h is not None)
        await fill(pilot, modal, market="Totals", line=f"{totals_line:g}", side="home")
        error = str(modal.query_one(".alert-error").render())
        assert "Totals has no side 'home': use over, under" in error
        await fill(pilot, modal, market="totals", line="", side="over")
        assert "Totals needs a line" in str(modal.query_one(".alert-error").render())
        await pilot.press("escape")
        await wait_for(lambda: isinstance(app.screen, WatchlistScreen), pilot)
        assert app.alerts.rules.all() == []
    assert not rules_path(config.watchlist_path()).exists()
    assert event["id"]


async def test_rules_are_listed_reopened_filled_edited_and_deleted(
    service: Service, home: Path
) -> None:
    event = starred_football_match(service)
    app = build_app(service.base_url, DEMO_KEY, config.Settings(), start_mode="watchlist")
    async with app.run_test(size=(120, 40)) as pilot:
        modal = await open_modal(app, pilot)
        await fill(pilot, modal, threshold="1.01", profit="50")  # ML home, holds at once
        await wait_for(lambda: isinstance(app.screen, WatchlistScreen), pilot)
        rule = PriceRule(event["id"], "ML", "home", 1.01)
        assert app.alerts.rules.prices == [rule]

        # Reopening `a` shows the rule's fields filled.
        modal = await open_modal(app, pilot)
        assert modal.query_one("#alert-threshold").value == "1.01"
        assert modal.query_one("#alert-market").value == "ML"
        assert modal.query_one("#alert-profit").value == "50"
        await pilot.press("escape")
        await wait_for(lambda: isinstance(app.screen, WatchlistScreen), pilot)

        # The rules screen: every rule with its last firing. The 1.01 rule held when it was
        # made: that crossed nothing, so it has never fired.
        await wait_for(lambda: app.alerts.rules.holding(rule) is True, pilot, timeout=30)
        await pilot.press("A")
        await wait_for(lambda: isinstance(app.screen, AlertRulesScreen), pilot)
        screen = app.screen
        rules = screen.query_one("#alert-rules", PatchTable)
        assert rules.row_count == 2
        first = rules.row_keys[0]
        assert rules.cell_text(first, "rule") == "ML home ≥ 1.01"
        assert app.alerts.last_firing(rule) is None
        assert rules.cell_text(first, "fired") == "never"
        assert rules.cell_text(rules.row_keys[1], "fired") == "never"  # the 50 % arbitrage
        history = screen.query_one("#alert-history", PatchTable)
        kinds = [history.cell_text(key, "kind") for key in history.row_keys]
        assert "price" not in kinds
        assert "ML home ≥ 1.01" in screen_text(app)

        # Edit: enter opens the rule filled in; saving replaces it.
        await pilot.press("enter")
        await wait_for(lambda: isinstance(app.screen, AlertRuleModal), pilot)
        modal = app.screen
        assert modal.query_one("#alert-threshold").value == "1.01"
        await wait_for(lambda: modal.offered is not None, pilot, timeout=30)
        await fill(pilot, modal, threshold="900", side="away")
        await wait_for(lambda: isinstance(app.screen, AlertRulesScreen), pilot)
        edited = PriceRule(event["id"], "ML", "away", 900.0)
        assert app.alerts.rules.prices == [edited]
        await wait_for(lambda: rules.cell_text(rules.row_keys[0], "rule") == "ML away ≥ 900", pilot)
        assert rules.cell_text(rules.row_keys[0], "fired") == "never"
        assert load_rules(rules_path(config.watchlist_path())).prices == [edited]

        # Delete, one rule after the other.
        await pilot.press("d")
        await wait_for(lambda: rules.row_count == 1, pilot)
        assert app.alerts.rules.prices == []
        await pilot.press("d")
        await wait_for(lambda: app.alerts.rules.all() == [], pilot)
        assert "No alert rules" in screen_text(app)
    assert load_rules(rules_path(config.watchlist_path())).all() == []


async def test_the_session_list_is_the_list_the_export_writes(
    service: Service, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: the session list stopped at 18:12 while the export held 18:13 and 18:14. An
    alert delivered while nothing else changes shows at once, and the list holds exactly what
    `E` exports, newest first."""
    event = starred_football_match(service)
    monkeypatch.chdir(home)
    app = build_app(service.base_url, DEMO_KEY, config.Settings(), start_mode="watchlist",
                    with_feed=False)  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("A")
        await wait_for(lambda: isinstance(app.screen, AlertRulesScreen), pilot)
        screen = app.screen
        history = screen.query_one("#alert-history", PatchTable)
        await ticks_pass(app, pilot)
        assert history.row_count == 0
        # A quiet feed (half-time): the screen hears no change set from the hub.
        app.hub.changed.unsubscribe(screen)
        for moment in ("Half-time 1-0", "Goal 2-0"):
            alert = Alert((moment,), event["id"], "halftime", "Half-time", f"x: {moment}")
            app.alerts.deliver(alert)
        await wait_for(lambda: history.row_count == 2, pilot, timeout=10)
        shown = [history.cell_text(key, "rule") for key in history.row_keys]
        await pilot.press("E")
        exported = await_file(home)
        await wait_for(lambda: exported() is not None, pilot, timeout=10)
        written = [record["message"] for record in json.loads(exported() or "[]")]
        assert written == ["x: Half-time 1-0", "x: Goal 2-0"]
        assert shown == list(reversed(written))


def await_file(folder: Path) -> Callable[[], str | None]:
    """The text of the one alerts export in `folder`, once it is there."""

    def text() -> str | None:
        found = sorted(folder.glob("oddstui-alerts-*.json"))
        return found[0].read_text(encoding="utf-8") if found else None

    return text


async def test_last_fired_is_kept_across_sessions(service: Service, home: Path) -> None:
    """Issue 32: "last fired" reset to `never` in a new session."""
    event = starred_football_match(service)
    rule = PriceRule(event["id"], "ML", "home", 900.0)
    first = build_app(service.base_url, DEMO_KEY, config.Settings(), start_mode="watchlist",
                      with_feed=False)  # fmt: skip
    async with first.run_test(size=(120, 40)):
        first.alerts.add_price_rule(rule)
        alert = Alert(("x",), event["id"], "price", "Price", "x: ML home 901", rule, 901.0)
        first.alerts.deliver(alert)
        assert first.alerts.last_fired(rule) is not None

    app = build_app(service.base_url, DEMO_KEY, config.Settings(), start_mode="watchlist",
                    with_feed=False)  # fmt: skip
    async with app.run_test(size=(120, 40)) as pilot:
        assert load_rules(rules_path(config.watchlist_path())).prices == [rule]
        assert app.alerts.history == []  # a new session: only the memory of when
        await pilot.press("A")
        await wait_for(lambda: isinstance(app.screen, AlertRulesScreen), pilot)
        rules = app.screen.query_one("#alert-rules", PatchTable)
        await wait_for(lambda: rules.row_count == 1, pilot)
        fired = app.alerts.last_fired(rule)
        assert fired is not None and fired.kind == "price" and fired.value == 901.0
        shown = rules.cell_text(rules.row_keys[0], "fired")
        assert shown != "never" and ":" in shown
        assert rules.cell_text(rules.row_keys[0], "price") == "901.00"

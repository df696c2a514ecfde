"""The alert screens' shots: the boards' recording (data/boards.json) with one starred match,
three rules on it and three alerts this session; replayed with time frozen."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from oddstui import config
from oddstui.tui.alerts.center import Firing
from oddstui.tui.alerts.rule_modal import AlertRuleModal
from oddstui.tui.alerts.rules import Alert, AlertRules, ArbitrageRule, PriceRule
from oddstui.tui.alerts.rules_screen import AlertRulesScreen
from oddstui.tui.alerts.store import rules_path, save_rules
from oddstui.tui.app import OddsApp
from tests.tui.boards_recorded import DATA, boards_app, settle
from tests.tui.conftest import wait_for

#: Shot name -> keys pressed on the rules screen.
SHOTS = {"alert-rules": (), "alert-rule-edit": ("enter",)}


def alert_app(folder: Path) -> tuple[OddsApp, dict[str, Any]]:
    """The boards' recording with one starred match and three rules on it."""
    state = json.loads(DATA.read_text())
    event = state["alert_event"]
    config.save_watchlist([config.WatchedEvent(event)], folder / "watchlist.toml")
    rules = AlertRules()
    rules.add_price(PriceRule(event, "ML", "home", 2.5))
    rules.add_price(PriceRule(event, "Totals", "over", 1.9, hdp=2.5))
    rules.set_arbitrage(ArbitrageRule(event, 1.5))
    save_rules(rules, rules_path(folder / "watchlist.toml"))
    return boards_app(folder, "arbitrage"), state


def session(app: OddsApp, state: dict[str, Any]) -> None:
    """Three alerts this session, the way the alert center records them."""
    event, at = state["alert_event"], float(state["recorded_at"])
    price = app.alerts.rules.prices[0]
    arb = app.alerts.rules.arbitrages[0]
    title = app.hub.board.events[event].title
    for ago, alert in (
        (300, Alert(("goal", event, 1, 0), event, "goal", "Goal", f"Goal: {title} 1–0")),
        (120, Alert(("price", price, 1), event, "price", "Price alert", "", price, 2.62)),
        (30, Alert(("arbitrage", event), event, "arbitrage", "Arbitrage", "", arb, 2.31)),
    ):
        app.alerts.fired.append(alert)
        app.alerts.history.append(Firing(at - ago, alert))


async def show(pilot: Any, state: dict[str, Any], keys: tuple[str, ...]) -> None:
    """The session's alerts in, the rules screen open, `keys` pressed, everything settled."""
    await settle(pilot)
    session(pilot.app, state)
    await pilot.press("A")
    await wait_for(lambda: isinstance(pilot.app.screen, AlertRulesScreen), pilot)
    if keys:
        await pilot.press(*keys)
        await wait_for(lambda: isinstance(pilot.app.screen, AlertRuleModal), pilot)
        modal = pilot.app.screen
        await wait_for(lambda: modal.offered is not None, pilot)
        for field in modal.query("Input"):
            field.cursor_blink = False
    await settle(pilot)


async def alert_screenshot(name: str, size: tuple[int, int], path: Path) -> None:
    """One alert shot as SVG (screenshots/make.py calls it)."""
    with tempfile.TemporaryDirectory() as folder:
        app, state = alert_app(Path(folder))
        async with app.run_test(size=size) as pilot:
            await show(pilot, state, SHOTS[name])
            path.write_text(app.export_screenshot(title=f"oddstui · {name}"))

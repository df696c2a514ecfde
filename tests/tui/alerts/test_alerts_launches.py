"""Price alerts over launches of the desk against the real built-in service: a rule on a
threshold the best price has not crossed never fires, however many times the desk starts (no
firing from a snapshot loaded before the feed is live, nor from a price at one book that is not
the best), and a rule that already holds when the desk starts is no crossing either, nor one
made in the session that holds at once."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui import config
from oddstui.tui.alerts.rules import AlertRules, PriceRule, Throttle
from oddstui.tui.alerts.store import rules_path, save_rules
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, feed_moves_on, start_service, wait_for

LAUNCHES = 3
# Up to six launches of a desk on a loaded machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(400)]


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    service = start_service("--speed", "1", "--seed", "5")
    yield service
    service.stop()


def get(service: Service, path: str, **params: Any) -> Any:
    response = httpx.get(service.base_url + path, params={**params, "apiKey": DEMO_KEY}, timeout=10)
    response.raise_for_status()
    return response.json()


def ml_home_prices(service: Service, event_id: int) -> list[float]:
    books = get(service, "/bookmakers/selected")["bookmakers"][:30]
    record = get(service, "/odds", eventId=event_id, bookmakers=",".join(books))
    prices = []
    for markets in record["bookmakers"].values():
        for market in markets:
            if market["name"] == "ML":
                for line in market["odds"]:
                    price = line.get("home")
                    if price is not None:
                        prices.append(float(price))
    return prices


def live_event_with_spread(service: Service) -> tuple[dict[str, Any], float]:
    """A live event whose books' home prices spread widely (the feed's book holds live events
    from the start), and a threshold a quarter of the way from its worst to its best home price:
    at `--speed 1` the best takes several scores to cross it. Matches in their first hour first,
    so that none ends during the launches."""
    best: tuple[float, dict[str, Any], float] | None = None
    events = get(service, "/events/live")
    assert events, "no live event"

    def early_then_busiest(event: dict[str, Any]) -> tuple[bool, int]:
        played = (event.get("clock") or {}).get("playedSeconds") or 0
        return played >= 3600, -(event.get("bookmakerCount") or 0)

    events.sort(key=early_then_busiest)
    for event in events[:12]:
        prices = ml_home_prices(service, event["id"])
        if len(prices) < 5:
            continue
        low, high = min(prices), max(prices)
        spread = (high - low) / high
        if best is None or spread > best[0]:
            best = (spread, event, low + (high - low) / 4)
    assert best is not None and best[0] > 0.04, "no event with a spread of prices"
    return best[1], best[2]


def star(event: dict[str, Any], rules: list[PriceRule]) -> None:
    watched = config.WatchedEvent(
        event["id"],
        event["home"],
        event["away"],
        event["sport"]["slug"],
        event["league"]["name"],
        event["date"],
    )
    config.save_watchlist([watched], config.watchlist_path())
    kept = AlertRules()
    for rule in rules:
        kept.add_price(rule)
    save_rules(kept, rules_path(config.watchlist_path()))


def best_home(book: Any, event_id: int) -> Any:
    return book.best(event_id, "ML", (None, None), ["home"])


def crossed_by_the_world(service: Service, rule: PriceRule) -> bool:
    """The service's best home price is at or below the rule's threshold now: the world crossed
    it (a score moves a live price far), so firing would be right and the launch is no trial."""
    prices = ml_home_prices(service, rule.event_id)
    return not prices or max(prices) <= rule.threshold


async def test_uncrossed_and_already_holding_rules_never_fire_over_three_launches(
    service: Service, home: Path
) -> None:
    def new_rules() -> tuple[dict[str, Any], PriceRule, PriceRule]:
        event, threshold = live_event_with_spread(service)
        # Some books are below the threshold, the best is above: `≤` has not been crossed.
        uncrossed = PriceRule(event["id"], "ML", "home", round(threshold, 3), above=False)
        holding = PriceRule(event["id"], "ML", "home", 1.01, above=True)  # always holds
        star(event, [uncrossed, holding])
        return event, uncrossed, holding

    _event, uncrossed, holding = new_rules()
    launches = 0
    for _trial in range(LAUNCHES + 3):
        if launches == LAUNCHES:
            break
        app = build_app(service.base_url, DEMO_KEY, config.Settings(), start_mode="watchlist")
        async with app.run_test(size=(120, 40)) as pilot:
            app.alerts.throttle = Throttle(burst=10_000, every=0.001)
            rules = app.alerts.rules

            def both_rules_observed(
                rules: AlertRules = rules,
                uncrossed: PriceRule = uncrossed,
                holding: PriceRule = holding,
            ) -> bool:
                return rules.holding(uncrossed) is False and rules.holding(holding) is True

            try:
                await wait_for(both_rules_observed, pilot, timeout=60)
            except AssertionError as error:
                if crossed_by_the_world(service, uncrossed):
                    _event, uncrossed, holding = new_rules()
                    continue
                seen = (rules.holding(uncrossed), rules.holding(holding), app.hub.status.state)
                raise AssertionError(f"{error}: holding, holding, feed = {seen}") from None
            await pilot.pause(3.0)  # more prices arrive
            best = app.hub.read(partial(best_home, event_id=uncrossed.event_id))
            fired = [alert for alert in app.alerts.fired if alert.kind == "price"]
            above = bool(best) and best["home"][0] > uncrossed.threshold
            if (fired or not above) and crossed_by_the_world(service, uncrossed):
                _event, uncrossed, holding = new_rules()
                continue
            assert above, best
            assert fired == [], [alert.message for alert in fired]
            launches += 1
    assert launches == LAUNCHES, f"{launches} trials: the world kept crossing the threshold"


async def test_a_rule_made_now_that_already_holds_never_fires(service: Service, home: Path) -> None:
    # `ML home >= 1.01` holds at once: making it crosses nothing, so nothing fires.
    event, _threshold = live_event_with_spread(service)
    star(event, [])
    app = build_app(service.base_url, DEMO_KEY, config.Settings(), start_mode="watchlist")
    async with app.run_test(size=(120, 40)) as pilot:
        app.alerts.throttle = Throttle(burst=10_000, every=0.001)
        await wait_for(lambda: app.hub.status.state == "live", pilot, timeout=30)
        rule = PriceRule(event["id"], "ML", "home", 1.01, above=True)
        app.alerts.add_price_rule(rule)
        await wait_for(lambda: app.alerts.rules.holding(rule) is True, pilot, timeout=60)
        await feed_moves_on(app, pilot)
        assert [alert.message for alert in app.alerts.fired if alert.kind == "price"] == []
        assert app.alerts.rules.holding(rule) is True

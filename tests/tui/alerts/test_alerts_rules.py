"""The pure alert rules: what fires, once, and how bursts are held back; rules on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from oddstui import config
from oddstui.book.alert_eval import fire
from oddstui.book.alert_rules import MatchState
from oddstui.tui.alerts.desktop import osc9
from oddstui.tui.alerts.rule_modal import parse_rules, parse_steam, steam_text
from oddstui.tui.alerts.rules import (
    Alert,
    AlertRules,
    ArbitrageRule,
    PriceRule,
    SteamRule,
    Throttle,
    parse_threshold,
)
from oddstui.tui.alerts.store import load_rules, save_rules


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_first_sight_is_a_baseline_then_goals_and_status_fire() -> None:
    rules = AlertRules()
    assert rules.observe_event(7, "A v B", "live", (0, 0)) == []
    assert rules.observe_event(7, "A v B", "live", (0, 0)) == []
    goal = rules.observe_event(7, "A v B", "live", (1, 0))
    assert [a.kind for a in goal] == ["goal"]
    assert goal[0].key == ("goal", 7, 1, 0)
    assert goal[0].message == "Goal: A v B 1–0" and goal[0].title == "Goal"
    ended = rules.observe_event(7, "A v B", "settled", (1, 0))
    assert [(a.kind, a.key) for a in ended] == [("status", ("status", 7, "settled"))]
    assert "live → settled" in ended[0].message
    assert rules.observe_event(7, "A v B", "live", (1, 0)) == []  # a stale listing after the end


def test_a_score_is_named_as_the_sport_scores_it() -> None:
    rules = AlertRules()
    rules.observe_event(7, "Axelsen v Momota", "live", (0, 0), "game")
    game = rules.observe_event(7, "Axelsen v Momota", "live", (1, 0), "game")
    assert [(a.title, a.message) for a in game] == [("Game", "Game: Axelsen v Momota 1–0")]


def test_a_loaded_rule_takes_a_baseline_and_fires_only_on_a_crossing() -> None:
    rules = AlertRules()
    rule = PriceRule(3, "ML", "home", 2.7, above=False)
    rules.add_price(rule)  # as loaded from alerts.toml at launch
    assert rules.observe_price(rule, 2.49, "FanDuel", "A v B") is None  # held already: baseline
    assert rules.observe_price(rule, 2.5) is None
    assert rules.observe_price(rule, 2.74) is None  # went back above
    crossed = rules.observe_price(rule, 2.68, "Bet365", "A v B")
    assert crossed is not None and crossed.message == "A v B: ML home ≤ 2.7: now 2.68 at Bet365"
    assert rules.observe_price(rule, 2.6) is None  # still below: the same crossing


def test_a_rule_made_or_edited_now_never_fires_at_first_sight() -> None:
    # `ML home >= 1.01` with the best at 3.53 holds at once: that crossed nothing.
    rules = AlertRules()
    made = PriceRule(3, "ML", "home", 1.01)
    rules.add_price(made)
    assert rules.observe_price(made, 3.53) is None
    old = PriceRule(3, "ML", "home", 2.0)
    rules.add_price(old)
    new = PriceRule(3, "ML", "home", 2.1)
    rules.replace(old, new)
    assert rules.observe_price(new, 2.2) is None
    assert rules.observe_price(new, 2.05) is None
    assert rules.observe_price(new, 2.2) is not None  # a crossing


def test_untrusted_score_neither_fires_nor_resets_the_baseline() -> None:
    rules = AlertRules()
    rules.observe_event(1, "A v B", "live", (2, 1))
    assert rules.observe_event(1, "A v B", "live", None) == []
    assert [a.key for a in rules.observe_event(1, "A v B", "live", (2, 2))] == [("goal", 1, 2, 2)]


def test_a_corrected_score_that_goes_down_is_no_goal() -> None:
    rules = AlertRules()
    rules.observe_event(1, "A v B", "live", (1, 1))
    assert rules.observe_event(1, "A v B", "live", (1, 0)) == []


def test_price_rule_fires_on_crossing_only_and_rearms() -> None:
    rules = AlertRules()
    rule = PriceRule(3, "ML", "home", 2.5, above=True)
    assert rules.observe_price(rule, 2.2) is None
    first = rules.observe_price(rule, 2.6, "Bet365")
    assert first is not None and first.kind == "price" and "2.6" in first.message
    assert rules.observe_price(rule, 2.7) is None  # still above: no second alert
    assert rules.observe_price(rule, 2.4) is None  # back below: re-armed
    second = rules.observe_price(rule, 2.5)
    assert second is not None and second.key != first.key


def test_price_rule_below_and_missing_prices() -> None:
    rules = AlertRules()
    rule = PriceRule(3, "Totals", "over", 1.8, above=False, hdp=2.5)
    rules.add_price(rule)
    assert rules.observe_price(rule, None) is None
    assert rules.observe_price(rule, float("nan")) is None
    assert rules.observe_price(rule, 1.85) is None  # the baseline
    alert = rules.observe_price(rule, 1.75)
    assert alert is not None and "Totals 2.5 over ≤ 1.8" in alert.message


def test_arbitrage_rule_respects_the_event_and_profit() -> None:
    legs = (("home", 2.1, "A"), ("away", 2.05, "B"))
    before = MatchState(5, "Lyon v Nice", 0.0)

    def found(profit: float, event_id: int = 5) -> MatchState:
        arbs = {("ML", (None, None)): (profit, legs)}
        return MatchState(event_id, "Lyon v Nice", 1.0, arbitrages=arbs)

    assert fire(ArbitrageRule(5, 2.0), before, found(1.5)) == []
    firings = fire(ArbitrageRule(5, 2.0), before, found(2.5))
    alerts = [Alert.of(firing) for firing in firings]
    assert len(alerts) == 1 and alerts[0].kind == "arbitrage"
    assert alerts[0].message.startswith("Lyon v Nice: 2.50% ML")  # names the event
    assert alerts[0].event == "Lyon v Nice" and alerts[0].rule == ArbitrageRule(5, 2.0)
    # Still there, its profit moved: the same crossing, no second alert.
    assert fire(ArbitrageRule(5, 2.0), found(2.5), found(2.7)) == []
    assert fire(ArbitrageRule(5, 2.0), MatchState(6, "x", 0.0), found(9.0, 6)) == []


def _alert(n: int) -> Alert:
    return Alert(("goal", n), n, "goal", "t", "m")


def test_throttle_lets_each_alert_through_once() -> None:
    clock = FakeClock()
    throttle = Throttle(burst=3, every=5.0, clock=clock)
    assert throttle.admit(_alert(1))
    clock.now = 100.0
    assert not throttle.admit(_alert(1))
    assert throttle.take_held() == 0


def test_throttle_holds_back_a_burst_and_refills() -> None:
    clock = FakeClock()
    throttle = Throttle(burst=3, every=5.0, clock=clock)
    admitted = [throttle.admit(_alert(n)) for n in range(10)]
    assert admitted == [True] * 3 + [False] * 7
    assert throttle.take_held() == 7
    assert throttle.take_held() == 0
    clock.now = 5.0
    assert throttle.admit(_alert(100))
    assert not throttle.admit(_alert(101))
    clock.now = 20.0
    assert [throttle.admit(_alert(200 + n)) for n in range(4)] == [True, True, True, False]


def test_rules_round_trip_through_the_file(tmp_path: Path) -> None:
    rules = AlertRules()
    rules.add_price(PriceRule(9, "Spread", "away", 1.95, above=False, hdp=-1.5))
    rules.add_price(PriceRule(9, "ML", "home", 3.0))
    rules.set_arbitrage(ArbitrageRule(9, 1.25))
    path = tmp_path / "alerts.toml"
    save_rules(rules, path)
    loaded = load_rules(path)
    assert loaded.prices == rules.prices
    assert loaded.arbitrages == rules.arbitrages
    loaded.remove_event(9)
    assert loaded.rules_of(9) == []


def test_a_broken_rules_file_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "alerts.toml"
    path.write_text('[[price]]\nevent = "x"\nmarket = "ML"\nside = "home"\nthreshold = 2\n')
    with pytest.raises(config.ConfigError, match="alerts.toml"):
        load_rules(path)
    assert load_rules(tmp_path / "missing.toml").prices == []


@pytest.mark.parametrize("text", ["abc", "1", "0.5", "-2", "inf", ""])
def test_bad_thresholds_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="threshold"):
        parse_threshold(text)


def test_modal_input_is_checked_in_plain_words() -> None:
    price, arb = parse_rules(4, "Totals", "2.5", "over", "1.9", False, "")
    assert price == PriceRule(4, "Totals", "over", 1.9, above=False, hdp=2.5) and arb is None
    with pytest.raises(ValueError, match="line must be a number"):
        parse_rules(4, "Totals", "two", "over", "1.9", True, "")
    with pytest.raises(ValueError, match="minimum profit"):
        parse_rules(4, "ML", "", "home", "", True, "lots")
    with pytest.raises(ValueError, match="set a threshold"):
        parse_rules(4, "ML", "", "home", "", True, "")


def test_osc9_cannot_be_broken_by_network_text() -> None:
    sequence = osc9("Goal! \x1b]52;c;evil\x07 A\x9c v B")
    assert sequence.startswith("\x1b]9;") and sequence.endswith("\x07")
    body = sequence[len("\x1b]9;") : -1]
    assert "\x1b" not in body and "\x07" not in body and "\x9c" not in body
    assert "Goal!" in body


def test_the_alert_rules_load_without_textual() -> None:
    import subprocess
    import sys

    code = "import sys, oddstui.tui.alerts.rules; print('textual' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_rules_are_edited_in_place_and_deleted() -> None:
    rules = AlertRules()
    first, second = PriceRule(1, "ML", "home", 2.0), PriceRule(1, "Totals", "over", 1.9, hdp=2.5)
    rules.add_price(first)
    rules.add_price(second)
    rules.set_arbitrage(ArbitrageRule(1, 2.0))
    edited = PriceRule(1, "ML", "away", 3.0, above=False)
    rules.replace(first, edited)
    assert rules.prices == [edited, second]
    rules.replace(edited, second)  # edited into an existing rule: one of it is left
    assert rules.prices == [second]
    rules.replace(ArbitrageRule(1, 2.0), ArbitrageRule(1, 4.0))
    assert rules.arbitrages == [ArbitrageRule(1, 4.0)]
    assert rules.all() == [second, ArbitrageRule(1, 4.0)]
    rules.remove(second)
    rules.remove(ArbitrageRule(1, 4.0))
    assert rules.all() == []


def test_an_alert_names_its_rule_and_price() -> None:
    rules = AlertRules()
    rule = PriceRule(1, "ML", "home", 2.0)
    rules.add_price(rule)
    rules.observe_price(rule, 1.9)  # the baseline
    alert = rules.observe_price(rule, 2.1, "Bet365", "Lyon v Nice")
    assert alert is not None and alert.rule == rule and alert.price == 2.1
    assert alert.message.startswith("Lyon v Nice: ML home ≥ 2")
    arbs = {("ML", (None, None)): (2.5, (("home", 2.1, "A"),))}
    firings = fire(
        ArbitrageRule(1, 1.0),
        MatchState(1, "Lyon v Nice", 0),
        MatchState(1, "Lyon v Nice", 1, arbitrages=arbs),
    )
    arb = Alert.of(firings[0])
    assert arb.rule == ArbitrageRule(1, 1.0) and arb.price == 2.5
    assert ArbitrageRule(1, 1.0).describe() == "arbitrage ≥ 1%"


def test_alert_prices_keep_the_books_precision() -> None:
    rules = AlertRules()
    rule = PriceRule(3, "ML", "home", 1.85, above=True)
    rules.add_price(rule)
    rules.observe_price(rule, 1.8)  # the baseline
    alert = rules.observe_price(rule, 1.9, "Unibet")
    assert alert is not None and "now 1.90 " in alert.message + " "
    rule = PriceRule(4, "ML", "away", 7.0, above=True)
    rules.add_price(rule)
    rules.observe_price(rule, 6.5)  # the baseline
    alert = rules.observe_price(rule, 7.007, "Pinnacle")
    assert alert is not None and "now 7.007" in alert.message


def test_a_steam_rule_is_typed_in_plain_words_and_kept_in_the_file(tmp_path: Path) -> None:
    rule = parse_steam(4, "5% 60 Pinnacle Sports, Bet365")
    assert rule == SteamRule(4, 5.0, 60.0, ("Pinnacle Sports", "Bet365"), "ML")
    assert parse_steam(4, "  ") is None
    assert parse_steam(4, "3") == SteamRule(4, 3.0, 60.0, (), "ML")  # any book, a minute
    worded = parse_steam(4, "5% in 60s at Pinnacle Sports, Bet365")
    assert worded == rule and parse_steam(4, steam_text(rule)) == rule
    for bad in ("fast", "0 60", "5 0", "120 60"):
        with pytest.raises(ValueError, match="steam"):
            parse_steam(4, bad)
    rules = AlertRules()
    rules.set_steam(rule)
    path = tmp_path / "alerts.toml"
    save_rules(rules, path)
    assert load_rules(path).steams == [rule]
    assert rule.describe() == "steam ML ≥ 5% in 60s at Pinnacle Sports, Bet365"

"""An arbitrage alert names only what the Arbitrage board shows by default (pure code)."""

from __future__ import annotations

from oddstui.tui.alerts.arb_trust import worth_an_alert

NOW = 1_000_000.0


def test_fresh_legs_quoted_after_the_last_goal_are_worth_an_alert() -> None:
    assert worth_an_alert((NOW - 5, NOW - 2), NOW, changed_at=NOW - 30, stale_after=90)


def test_a_leg_quoted_before_the_last_goal_is_not() -> None:
    assert not worth_an_alert((NOW - 40, NOW - 2), NOW, changed_at=NOW - 30, stale_after=90)


def test_a_leg_older_than_the_stale_setting_is_not() -> None:
    assert not worth_an_alert((NOW - 120, NOW - 2), NOW, changed_at=None, stale_after=90)
    assert worth_an_alert((NOW - 120, NOW - 2), NOW, changed_at=None, stale_after=None)


def test_unknown_quote_times_do_not_hide_an_arbitrage() -> None:
    assert worth_an_alert((None, None), NOW, changed_at=NOW - 30, stale_after=90)

"""Refresh pacing by the hourly budget, and debounced early refreshes (pure, a fake clock)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from oddstui.api.models import UNKNOWN_BUDGET, Budget
from oddstui.api.pacing import RESERVE, RefreshSchedule, paced_interval

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def budget(remaining: int | None, reset_in: float | None = 3600.0) -> Budget:
    reset = None if reset_in is None else NOW + timedelta(seconds=reset_in)
    return Budget(5000, remaining, reset)


def test_a_plentiful_or_unknown_budget_keeps_the_base_interval() -> None:
    assert paced_interval(20.0, UNKNOWN_BUDGET, 0.25, NOW) == 20.0
    assert paced_interval(20.0, budget(5000), 0.25, NOW) == 20.0


def test_a_low_budget_stretches_the_interval_to_last_until_the_reset() -> None:
    # 200 left, an hour to go, a quarter of it for this refresh: one every 72 s.
    assert paced_interval(20.0, budget(200), 0.25, NOW) == pytest.approx(72.0)
    # The same 200 with ten minutes to the reset is plenty again.
    assert paced_interval(20.0, budget(200, 600.0), 0.25, NOW) == 20.0
    assert paced_interval(20.0, budget(200, None), 0.25, NOW) == pytest.approx(72.0)
    assert paced_interval(20.0, budget(RESERVE - 1), 0.25, NOW) is None


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def schedule(clock: Clock) -> RefreshSchedule:
    return RefreshSchedule(20.0, min_gap=10.0, debounce=2.0, share=0.25, clock=clock)


def test_periodic_and_first_refresh() -> None:
    clock = Clock()
    plan = schedule(clock)
    assert plan.due(UNKNOWN_BUDGET)  # never fetched
    plan.started()
    clock.now += 19.9
    assert not plan.due(UNKNOWN_BUDGET)
    clock.now += 0.1
    assert plan.due(UNKNOWN_BUDGET)


def test_many_kick_offs_make_one_early_refresh_not_one_each() -> None:
    clock = Clock()
    plan = schedule(clock)
    plan.started()
    sent = 0
    for _ in range(600):  # a kick-off every 0.1 s for a minute
        plan.ask()
        clock.now += 0.1
        if plan.due(UNKNOWN_BUDGET):
            plan.started()
            sent += 1
    assert 5 <= sent <= 6  # about one per min_gap (10 s), where asking for each sent 600
    assert plan.asks == 600 and plan.refreshes == sent + 1


def test_an_ask_waits_for_its_debounce_and_the_gap() -> None:
    clock = Clock()
    plan = schedule(clock)
    plan.started()
    clock.now += 12.0
    plan.ask()
    assert not plan.due(UNKNOWN_BUDGET)  # asked just now: more may follow
    clock.now += 2.0
    assert plan.due(UNKNOWN_BUDGET)


def test_a_low_budget_slows_early_refreshes_too_and_says_so() -> None:
    clock = Clock()
    plan = schedule(clock)
    low = Budget(5000, 200, datetime.now(UTC) + timedelta(hours=1))
    plan.started()
    plan.ask()
    clock.now += 20.0
    assert not plan.due(low)  # the gap is stretched like the interval (10 s -> ~36 s)
    clock.now += 17.0
    assert plan.due(low)
    assert plan.note(low).startswith("budget low: refresh every 7")
    assert plan.note(Budget(5000, 4000, None)) == ""
    assert plan.note(Budget(5000, 10, None)) == "budget low: refreshes paused"
    assert not plan.due(Budget(5000, 10, None))


def test_a_small_plan_keeps_a_tenth_of_its_limit_and_spreads_the_rest() -> None:
    free = Budget(100, 60, NOW + timedelta(seconds=1800))
    # 60 left, half an hour to go, half of it for the screen in front: one every minute.
    assert paced_interval(10.0, free, 0.5, NOW) == pytest.approx(60.0)
    # At the reserve (10 of 100) it still refreshes, paced; below it, it stops.
    last = Budget(100, 10, NOW + timedelta(seconds=60))
    assert paced_interval(10.0, last, 0.5, NOW) == pytest.approx(12.0)
    assert paced_interval(10.0, Budget(100, 9, NOW + timedelta(seconds=60)), 0.5, NOW) is None


def test_a_reset_that_has_passed_no_longer_pauses() -> None:
    spent = Budget(100, 3, NOW - timedelta(seconds=1))
    assert paced_interval(10.0, spent, 0.5, NOW) == 10.0  # the next answer brings the new hour


def test_a_short_hour_shrinks_the_base_interval() -> None:
    assert paced_interval(20.0, UNKNOWN_BUDGET, 0.25, NOW, hour=360.0) == pytest.approx(2.0)
    assert paced_interval(20.0, UNKNOWN_BUDGET, 0.25, NOW, hour=7200.0) == 20.0


def test_the_window_is_learnt_from_the_answer_that_opened_it() -> None:
    from oddstui.api.budget import BudgetTracker

    tracker = BudgetTracker()
    reset = datetime.now(UTC) + timedelta(seconds=600)
    stamp = reset.strftime("%Y-%m-%dT%H:%M:%SZ")
    tracker.observe({"x-ratelimit-limit": "100", "x-ratelimit-remaining": "57"})
    assert tracker.hour == 3600.0  # mid-window: nothing learnt
    headers = {"x-ratelimit-limit": "100", "x-ratelimit-remaining": "99"}
    tracker.observe({**headers, "x-ratelimit-reset": stamp})
    assert 598.0 <= tracker.hour <= 600.0

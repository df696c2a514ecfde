"""Bounds on what the world keeps as it runs: memory must flatten, however long it runs."""

from __future__ import annotations

from oddstui.service.world import World
from oddstui.service.world.history import MAX_TICKS, History
from oddstui.service.world.schedule import HISTORY_DAYS

START = 1_795_600_000.0


def test_history_keeps_at_most_its_budget_of_ticks_dropping_the_oldest() -> None:
    history = History(seed=1, max_ticks=500)
    for n in range(3000):
        event_id, line = n % 7, n % 40
        key = ("Bet365", "ML", None, f"line {line}")
        history.record(event_id, key, (0.0, {"home": 2.0}), (float(n + 1), {"home": 2.0 + n}))
    assert history.tick_count() == 500
    # The newest ticks are the ones kept, and every line still has its anchor.
    kept = sorted(
        ts for event_id in range(7) for line in range(40)
        if (hist := history.recorded(event_id, ("Bet365", "ML", None, f"line {line}")))
        for ts, _ in hist.ticks
    )
    assert kept == [float(n) for n in range(2501, 3001)]
    assert history.line_count() == 7 * 40
    assert all(len(h.ticks) <= MAX_TICKS for e in history._lines.values() for h in e.values())


def test_finished_events_leave_the_world_after_the_history_window() -> None:
    world = World(seed=2, bookmakers=30, updates_per_second=5.0, start=START,
                  real_clock=lambda: 0.0)
    first = min(event.start for event in world.events.values())
    assert first < START - (HISTORY_DAYS - 1) * 86400.0
    for _ in range(3):
        world.advance(3600.0)
    horizon = world.now() - HISTORY_DAYS * 86400.0
    remaining = min(event.start for event in world.events.values())
    assert remaining >= horizon - 3600.0  # swept once a simulated hour
    assert remaining > first  # the first hours of the window have gone

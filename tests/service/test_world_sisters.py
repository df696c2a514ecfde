"""White labels do what the world's truth says they do (`oddstui serve --truth`): a sister book
quotes only events its parent quotes, opens as a copy of its parent's prices at its own margin,
and is suspended with its parent, never on its own. Otherwise its measured lag is not its
parent's plus its copy delay (docs/books.md, "Against the truth")."""

from __future__ import annotations

import math

import pytest

from oddstui.service.world import World
from oddstui.service.world.bookmaker_truth import copy_delay
from oddstui.service.world.model import LIVE, PENDING

START = 1_800_000_000.0


@pytest.fixture(scope="module")
def world() -> World:
    world = World(seed=3, start=START, speed=10.0, updates_per_second=1000.0,
                  real_clock=lambda: 0.0)
    world.warm()
    return world


def test_a_sister_quotes_only_events_its_parent_quotes(world: World) -> None:
    pairs = 0
    for event in world.events.values():
        for name in event.bookmakers:
            parent = world.bookmakers[name].sister_of
            if parent is not None:
                pairs += 1
                assert parent in event.bookmakers, (event.id, name, parent)
    assert pairs > 100


def test_a_sister_opens_as_its_parents_prices_at_its_own_margin(world: World) -> None:
    lines = 0
    for event in world.quoted_events():
        for name in event.bookmakers:
            sister = world.bookmakers[name]
            if sister.sister_of is None or (event.id, name) in world._suspended:
                continue
            parent = world.bookmakers[sister.sister_of]
            theirs = {m.name: m for m in world.book_markets(event, parent.name)}
            mine = world.book_markets(event, name)
            assert [m.name for m in mine] == list(theirs), (event.id, name)
            scale = (1.0 + parent.margin) / (1.0 + sister.margin)
            tick = 10.0**-sister.precision
            for market in mine:
                source = {(line.hdp, line.label): line for line in theirs[market.name].lines}
                for line in market.lines:
                    for side, price in line.prices.items():
                        want = source[(line.hdp, line.label)].prices[side] * scale
                        assert want - tick - 1e-9 <= price <= max(want, 1.01) + 1e-9, (
                            event.id, name, market.name, line, side)
                        lines += 1
    assert lines > 1000


def test_a_sister_is_suspended_only_with_its_parent(world: World) -> None:
    parent_seen: dict[tuple[int, str], float] = {}
    sister_suspensions = 0
    for _ in range(300):  # five simulated minutes, in one-second steps
        world.advance(1.0)
        now = world.now()
        suspended = world._suspended
        for event_id, name in suspended:
            if world.bookmakers[name].sister_of is None:
                parent_seen[(event_id, name)] = now
        for event_id, name in suspended:
            sister = world.bookmakers[name]
            if sister.sister_of is None or world.events[event_id].status != LIVE:
                continue
            sister_suspensions += 1
            since = parent_seen.get((event_id, sister.sister_of), -math.inf)
            assert now - since <= copy_delay(sister, True) + 1.0, (event_id, name, now - since)
    assert sister_suspensions > 0


def test_a_sister_copies_each_change_of_its_parent_no_sooner_than_its_copy_delay() -> None:
    """A sister shows a price of its parent's only once its copy delay has passed since the
    parent showed it: a later change of the parent within the delay is not copied early."""
    world = World(seed=3, start=START, speed=10.0, updates_per_second=1000.0,
                  real_clock=lambda: 0.0)
    world.warm()
    begin = world.now()
    for _ in range(120):  # two simulated minutes, in one-second steps
        world.advance(1.0)
    history = world.history
    checked = early = 0
    for event in world.quoted_events():
        for name in event.bookmakers:
            sister = world.bookmakers[name]
            if sister.sister_of is None:
                continue
            parent = world.bookmakers[sister.sister_of]
            scale = (1.0 + parent.margin) / (1.0 + sister.margin)
            tick = 10.0**-sister.precision
            for market in world.book_markets(event, name):
                for line in market.lines:
                    mine = history.recorded(event.id, (name, market.name, line.hdp, line.label))
                    theirs = history.recorded(
                        event.id, (parent.name, market.name, line.hdp, line.label))
                    if mine is None or theirs is None:
                        continue
                    shown = [theirs.anchor, *theirs.ticks]
                    for at, prices in mine.ticks:
                        if at <= begin + 30.0:
                            continue  # warming and the first copies
                        # The parent's prices this copies (at the sister's margin and ticks).
                        sources = [ts for ts, p in shown if all(
                            abs(p[side] * scale - price) <= tick + 1e-9
                            or price <= 1.01 for side, price in prices.items() if side in p)]
                        if not sources:
                            continue  # a price floored, or a line the parent re-anchored
                        checked += 1
                        # Two of the parent's prices a tick apart look alike at the sister's
                        # precision: the copy is early only if none it may be was shown by the
                        # parent its copy delay before.
                        if not any(at - s >= copy_delay(sister, in_play=s >= event.start) - 1e-6
                                   for s in sources):
                            early += 1  # before its parent showed it, or within the delay
    assert checked > 100, checked
    assert early == 0, f"{early} of {checked} copies came before the copy delay"


def test_a_sister_takes_down_a_market_a_move_leaves_over_the_bound() -> None:
    # A white label follows no move (it copies its parent), but a move that leaves its price
    # far over the true one takes its market down at once, as any book's (world/deadlines.py).
    world = World(seed=3, start=START, speed=10.0, updates_per_second=1000.0,
                  real_clock=lambda: 0.0)
    world.warm()
    event, name = next(
        (event, name) for event in world.quoted_events()
        if event.status == PENDING and event.id in world._quoter.truths
        for name in event.bookmakers
        if world.bookmakers[name].sister_of is not None and "ML" in event.quotes.get(name, {}))
    truth = world._quoter.truths[event.id]
    truth.walk["ML"] = truth.walk.get("ML", 0.0) + 1.5  # a steamer
    truth.bump(["ML"], [])
    world._quoter.keep(event)
    world._budget, world._prematch_keep = 10.0, 0.0  # a step's budget, not the warm-up's
    world._follow(event.id, world.bookmakers[name], world._sim)
    assert "ML" not in event.quotes[name]

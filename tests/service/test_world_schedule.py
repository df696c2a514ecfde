"""The schedule is a pure function of the seed and the calendar, and a credible one.

- Two worlds at one seed started hours apart list the same fixture under the same id and
  kick-off, and a match live in both is at the same point of play at the same moment.
- A participant plays at most once a day in its sport, and never on two days running.
- Something kicks off within every five minutes; ids never repeat.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest

from oddstui.service.world import World
from oddstui.service.world.catalog import build_catalog
from oddstui.service.world.durations import MEAN_DURATIONS, measured_duration
from oddstui.service.world.model import LIVE
from oddstui.service.world.schedule import DAY, MAX_QUIET, Scheduler, league_sizes
from oddstui.service.world.sports import SPORTS
from oddstui.service.world.truth import mix

START = 1_800_000_000.0
LATER = 5 * 3600.0 + 17.0
DAYS = range(20_833, 20_837)  # four days around START


def scheduler(seed: int) -> Scheduler:
    return Scheduler(build_catalog(random.Random(mix(seed, 1)), 265, league_sizes()), seed)


def test_the_same_seed_lays_out_the_same_days() -> None:
    one, two = scheduler(4), scheduler(4)
    other = scheduler(5)
    for day in DAYS:
        a, b = one.day(day), two.day(day)
        assert a
        assert [(f.id, f.start, f.home, f.away, f.league) for f in a] == \
            [(f.id, f.start, f.home, f.away, f.league) for f in b]
        assert [one.books(f) for f in a] == [two.books(f) for f in b]
        assert [(f.home, f.away) for f in a] != [(f.home, f.away) for f in other.day(day)]


def test_a_participant_plays_at_most_once_a_day_and_never_two_days_running() -> None:
    plan = scheduler(1)
    played: dict[int, list[int]] = defaultdict(list)  # participant -> days
    ids: Counter[int] = Counter()
    for day in DAYS:
        fixtures = plan.day(day)
        assert len(fixtures) > 500, len(fixtures)
        per_day: Counter[int] = Counter()
        for f in fixtures:
            assert f.home != f.away
            assert day * DAY <= f.start < (day + 1) * DAY
            per_day[f.home] += 1
            per_day[f.away] += 1
            ids[f.id] += 1
        twice = [p for p, n in per_day.items() if n > 1]
        assert not twice, [plan.catalog.participants[p].name for p in twice[:5]]
        for participant in per_day:
            played[participant].append(day)
    assert max(ids.values()) == 1, "an id names two fixtures"
    running = [p for p, days in played.items()
               if any(b - a == 1 for a, b in zip(days, days[1:], strict=False))]
    assert not running, [plan.catalog.participants[p].name for p in running[:5]]


def test_something_kicks_off_within_every_five_minutes() -> None:
    plan = scheduler(2)
    starts = sorted(f.start for day in DAYS for f in plan.day(day))
    assert starts
    gaps = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    assert max(gaps) <= MAX_QUIET + 1e-6 and MAX_QUIET < 300


@pytest.fixture(scope="module")
def worlds() -> tuple[World, World]:
    # (a thin update budget: the prices' work over hours in one step is not what is tested)
    first = World(seed=3, start=START, updates_per_second=0.05, real_clock=lambda: 0.0)
    first.advance(LATER)  # run on from its start
    second = World(seed=3, start=START + LATER, updates_per_second=0.05,
                   real_clock=lambda: 0.0)  # started later
    return first, second


def test_worlds_started_apart_list_the_same_fixtures_under_the_same_ids(
    worlds: tuple[World, World],
) -> None:
    first, second = worlds
    near = [e for e in second.events.values() if abs(e.start - second.now()) < 86400]
    assert len(near) > 300
    shared = [e for e in near if e.id in first.events]
    assert len(shared) >= 0.95 * len(near), (len(shared), len(near))
    for event in shared:
        was = first.events[event.id]
        assert (was.home.id, was.away.id, was.start, was.league.slug) == \
            (event.home.id, event.away.id, event.start, event.league.slug)
        assert was.bookmakers == event.bookmakers


def test_a_match_live_in_both_is_at_the_same_point_of_play(worlds: tuple[World, World]) -> None:
    first, second = worlds
    assert first.now() == second.now()
    live_first = {e.id for e in first.live_events()}
    live_second = {e.id for e in second.live_events()}
    assert len(live_second) >= 20
    assert live_first == live_second
    for event_id in live_second:
        a, b = first.events[event_id], second.events[event_id]
        assert a.status == b.status == LIVE
        assert (a.scores.home, a.scores.away, a.scores.periods) == \
            (b.scores.home, b.scores.away, b.scores.periods), a.sport.slug
        assert a.clock == b.clock, (a.sport.slug, a.clock, b.clock)


def test_a_world_laid_out_in_the_background_ends_as_one_built_at_once() -> None:
    clock = [0.0]
    background = World(seed=3, start=START, updates_per_second=1.0, background=True,
                       real_clock=lambda: clock[0])
    # What the first requests need is there at once: live matches and the next kick-offs.
    assert background.live_events()
    assert any(0 < e.start - START < 3600 for e in background.events.values())
    assert not background.laid_out
    steps = 0
    while not background.laid_out:
        clock[0] += 0.001
        background.step()
        steps += 1
        assert steps < 100_000
    assert steps > 1  # it was spread over steps
    whole = World(seed=3, start=START + clock[0], updates_per_second=1.0,
                  real_clock=lambda: 0.0)
    assert len(whole.events) > 5000
    assert set(background.events) ^ set(whole.events) == set()


def test_the_kept_match_lengths_are_what_the_engines_play_out() -> None:
    measured = {spec.slug: measured_duration(spec.slug) for spec in SPORTS}
    lines = "".join(f'    "{slug}": {value!r},\n' for slug, value in measured.items())
    assert measured == MEAN_DURATIONS, f"durations.py should read:\n{lines}"


def test_a_span_asked_for_is_laid_out_at_once_while_the_background_goes_on() -> None:
    background = World(seed=3, start=START, updates_per_second=1.0, background=True,
                       real_clock=lambda: 0.0)
    whole = World(seed=3, start=START, updates_per_second=1.0, real_clock=lambda: 0.0)
    span = (START - 40 * DAY, START - 9 * DAY)  # old history: the background's last days

    def settled_in_span(world: World) -> set[int]:
        return {e.id for e in world.events.values()
                if span[0] <= e.start <= span[1] and e.status in ("settled", "cancelled")}

    expected = settled_in_span(whole)
    assert len(expected) > 1000
    assert len(settled_in_span(background)) < len(expected) / 10  # not laid out yet
    background.lay_out_span(*span)
    assert settled_in_span(background) == expected
    assert not background.laid_out  # only what was asked for


def test_an_event_asked_for_by_id_is_laid_out_with_its_day() -> None:
    background = World(seed=3, start=START, updates_per_second=1.0, background=True,
                       real_clock=lambda: 0.0)
    whole = World(seed=3, start=START, updates_per_second=1.0, real_clock=lambda: 0.0)
    old = [e for e in whole.events.values() if START - 30 * DAY <= e.start <= START - 29 * DAY]
    assert old, "the history keeps a share of every day"
    unseen = [e for e in old if e.id not in background.events]
    assert unseen, "the background has not reached that day yet"
    asked = unseen[len(unseen) // 2]
    laid = background.event_laid_out(asked.id)
    assert laid is not None and laid.to_wire() == asked.to_wire()
    assert all(e.id in background.events for e in old)  # its whole day came with it
    assert not background.laid_out
    assert background.event_laid_out(asked.id + 10**9) is None  # an id of no day's fixture

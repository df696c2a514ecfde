"""The match engines as the world runs them: every live and settled event of a stepped world
keeps the score and clock rules the engine property tests check (tests/service/
test_world_engines_invariants.py), so a fault in how the world starts, steps or settles
engines shows up too.
"""

from __future__ import annotations

from oddstui.service.world.model import LIVE, SETTLED, Clock, Event
from oddstui.service.world.sports import SPORT_BY_SLUG
from oddstui.service.world.world import World
from tests.service.test_world_engines_invariants import check_live, check_settled

START = 1_763_712_000.0  # a fixed simulated start, so the world is the same on every run
STEP = 240.0  # simulated seconds per step
STEPS = 30  # two hours


def knockout_league(sport: str, league: str) -> bool:
    return any(slug == league and knockout for slug, _, knockout in SPORT_BY_SLUG[sport].leagues)


def test_live_and_settled_events_of_a_running_world_keep_the_score_rules() -> None:
    clock_time = [0.0]
    world = World(seed=5, start=START, bookmakers=30, updates_per_second=2.0,
                  real_clock=lambda: clock_time[0])
    settled = [e for e in world.events.values() if e.status == SETTLED]
    assert len(settled) > 500
    for event in settled:
        assert event.clock is None
        check_settled_event(event)
    clocks: dict[int, Clock] = {}
    seen_live: set[str] = set()
    for _ in range(STEPS):
        world.advance(STEP)
        for event in world.live_events():
            engine = world.engine(event.id)
            assert engine is not None and engine.scores is event.scores
            if engine.finished:  # kicked off this step already over; settled on the next
                continue
            assert event.clock is not None and event.clock == engine.clock
            check_live(engine, clocks.get(event.id))
            clocks[event.id] = event.clock
            seen_live.add(event.sport.slug)
        for event_id in list(clocks):
            event = world.events[event_id]
            if event.status == SETTLED:
                assert event.clock is None
                check_settled_event(event)
                del clocks[event_id]
    assert len(seen_live) >= 20, sorted(seen_live)
    assert any(world.events[i].status == LIVE for i in clocks)


def check_settled_event(event: Event) -> None:
    knockout = knockout_league(event.sport.slug, event.league.slug)
    check_settled(SPORT_BY_SLUG[event.sport.slug], event.scores, knockout)

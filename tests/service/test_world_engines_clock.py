"""Property: every sport's clock tells the truth across a whole match, however time is sliced.

- A stopped clock (`running: false`) does not advance: its playedSeconds stand still until play
  resumes, so a client that extrapolates a running clock never sees it jump.
- A running clock advances.
- A match in a period past the first has a score for every period so far, and in a timed sport's
  regulation the period scores add up to the score.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oddstui.service.world.engines import make_engine
from oddstui.service.world.model import Clock, Scores
from oddstui.service.world.schedule import sport_duration
from oddstui.service.world.sports import SPORTS, SportSpec

TIMED = ("timed", "batting", "innings")
NUMBERED = re.compile(r"(?:p|map)(\d+)")


def period_numbers(scores: Scores) -> list[int]:
    return sorted(int(m.group(1)) for key in scores.periods if (m := NUMBERED.fullmatch(key)))


def check_step(spec: SportSpec, before: Clock, after: Clock, scores: Scores, dt: float) -> None:
    same_phase = before.period == after.period and before.status_detail == after.status_detail
    if same_phase and not before.running and not after.running:
        assert after.played_seconds == before.played_seconds, (spec.slug, before, after)
    if same_phase and before.running and after.running and not before.injury_time:
        assert after.played_seconds >= before.played_seconds, (spec.slug, before, after)
        if dt >= 10.0:
            assert after.played_seconds > before.played_seconds, (spec.slug, before, after, dt)
    if not after.running and before.running is False and after.period == before.period:
        assert after.played_seconds == before.played_seconds, (spec.slug, before, after)
    numbers = period_numbers(scores)
    regulation = min(after.period, spec.periods) if spec.engine in TIMED else after.period
    if after.period > 1:
        assert numbers[:regulation] == list(range(1, regulation + 1)), (spec.slug, after,
                                                                        scores.periods)
    if spec.engine in TIMED and after.period > spec.periods:
        assert "ot" in scores.periods, (spec.slug, after, scores.periods)
    if spec.engine in TIMED and "ft" not in scores.periods and "ot" not in scores.periods:
        home = sum(scores.periods[f"p{n}"][0] for n in numbers)
        away = sum(scores.periods[f"p{n}"][1] for n in numbers)
        assert (home, away) == (scores.home, scores.away), (spec.slug, scores)


@pytest.mark.parametrize("spec", SPORTS, ids=lambda s: s.slug)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**30),
    knockout=st.booleans(),
    shares=st.lists(st.floats(0.0005, 0.03), min_size=20, max_size=80),
)
def test_clock_and_running_agree_across_a_match(
    spec: SportSpec, seed: int, knockout: bool, shares: list[float]
) -> None:
    engine = make_engine(spec, seed, Scores(), 0.0, knockout)
    length = sport_duration(spec)
    previous = engine.clock
    assert previous is not None
    for i in range(20_000):
        dt = shares[i % len(shares)] * length
        engine.advance(dt)
        clock = engine.clock
        if engine.finished:
            break
        assert clock is not None
        check_step(spec, previous, clock, engine.scores, dt)
        previous = clock
    assert engine.finished, f"{spec.slug} seed {seed} never finished"

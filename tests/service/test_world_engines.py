"""Match engines, driven directly: period keys, overtime and shoot-out score rules, clocks."""

from __future__ import annotations

import pytest

from oddstui.service.world.engines import (
    decided_in_overtime,
    decided_on_penalties,
    find_seed,
    make_engine,
)
from oddstui.service.world.model import Scores
from oddstui.service.world.sports import SPORT_BY_SLUG, SPORTS

FOOTBALL = SPORT_BY_SLUG["football"]
HOCKEY = SPORT_BY_SLUG["ice-hockey"]
BASKETBALL = SPORT_BY_SLUG["basketball"]


def played(slug: str, seed: int, knockout: bool = False, rating: float = 0.0) -> Scores:
    engine = make_engine(SPORT_BY_SLUG[slug], seed, Scores(), rating, knockout)
    engine.play_out()
    assert engine.finished
    return engine.scores


@pytest.mark.parametrize("spec", SPORTS, ids=lambda s: s.slug)
def test_every_sport_plays_to_a_result_with_ft(spec):
    for seed in range(8):
        scores = played(spec.slug, seed, knockout=seed % 2 == 0)
        assert "ft" in scores.periods
        assert "currentgame" not in scores.periods
        keys = set(scores.periods) - {"ft", "ot", "ap"}
        prefix = "map" if spec.engine == "maps" else "p"
        assert keys and all(k.startswith(prefix) and k[len(prefix):].isdigit() for k in keys)
        if "ap" not in scores.periods and "ot" not in scores.periods:
            assert scores.periods["ft"] == (scores.home, scores.away)


@pytest.mark.parametrize("spec", SPORTS, ids=lambda s: s.slug)
def test_outcome_does_not_depend_on_step_size(spec):
    big = make_engine(spec, 42, Scores(), 0.3, True)
    big.play_out()
    small = make_engine(spec, 42, Scores(), 0.3, True)
    while not small.finished:
        small.advance(7.3)
    assert small.scores == big.scores


def test_football_halves_sum_to_full_time():
    for seed in range(30):
        s = played("football", seed)
        (h1, a1), (h2, a2) = s.periods["p1"], s.periods["p2"]
        assert (h1 + h2, a1 + a2) == s.periods["ft"] == (s.home, s.away)


def test_football_knockout_decided_in_extra_time_takes_the_ot_score():
    seed = find_seed(FOOTBALL, decided_in_overtime)
    s = played("football", seed, knockout=True)
    ft, ot = s.periods["ft"], s.periods["ot"]
    assert ft[0] == ft[1]
    assert ot[0] != ot[1]
    assert (s.home, s.away) == ot
    assert "ap" not in s.periods


def test_football_knockout_decided_on_penalties_keeps_ft_and_adds_ap():
    seed = find_seed(FOOTBALL, decided_on_penalties)
    s = played("football", seed, knockout=True)
    ft, ap = s.periods["ft"], s.periods["ap"]
    assert (s.home, s.away) == ft
    assert ft[0] == ft[1]
    assert ap[0] != ap[1]
    assert s.periods["ot"] == ft  # extra time was played, without a goal


def test_league_football_draws_stand():
    seed = find_seed(FOOTBALL, lambda s: s.home == s.away, knockout=False)
    s = played("football", seed, knockout=False)
    assert "ot" not in s.periods and "ap" not in s.periods


def test_ice_hockey_shootout_and_overtime():
    seed = find_seed(HOCKEY, decided_on_penalties, knockout=False)
    s = played("ice-hockey", seed)
    assert {"p1", "p2", "p3", "ft", "ot", "ap"} <= set(s.periods)
    assert (s.home, s.away) == s.periods["ft"]
    seed = find_seed(HOCKEY, decided_in_overtime, knockout=False)
    s = played("ice-hockey", seed)
    assert (s.home, s.away) == s.periods["ot"]
    assert abs(s.periods["ot"][0] - s.periods["ot"][1]) == 1  # sudden death: one goal


def test_basketball_overtime_until_someone_leads():
    seed = find_seed(BASKETBALL, decided_in_overtime, knockout=False)
    s = played("basketball", seed)
    assert [f"p{i}" for i in range(1, 5)] == [k for k in s.periods if k.startswith("p")]
    assert s.periods["ft"][0] == s.periods["ft"][1]
    assert (s.home, s.away) == s.periods["ot"]
    assert s.home != s.away


def test_tennis_sets_and_current_game_while_live():
    engine = make_engine(SPORT_BY_SLUG["tennis"], 3, Scores(), 0.0, False)
    engine.advance(600)
    assert "currentgame" in engine.scores.periods
    clock = engine.clock
    assert clock is not None and clock.serve in ("home", "away")
    assert clock.status_detail.startswith("1st set")
    engine.play_out()
    s = engine.scores
    assert max(s.home, s.away) == 2 and min(s.home, s.away) <= 1
    for key in [k for k in s.periods if k.startswith("p")]:
        h, a = s.periods[key]
        assert max(h, a) in (6, 7)


def test_esports_maps():
    s = played("esports", 5)
    maps = [k for k in s.periods if k.startswith("map")]
    assert maps and maps[0] == "map1"
    assert max(s.home, s.away) == 2
    wins = sum(1 for k in maps if s.periods[k][0] > s.periods[k][1])
    assert wins == s.home


def test_football_clock_through_a_match():
    engine = make_engine(FOOTBALL, 9, Scores(), 0.0, False)
    engine.advance(600)
    c = engine.clock
    assert c is not None
    assert (c.period, c.running, c.status_detail) == (1, True, "1st half")
    assert c.minute == 11 and c.played_seconds == 600
    engine.advance(2700 + 360 + 60 - 600)  # past 45 minutes and any first-half stoppage
    c = engine.clock
    assert c is not None
    assert (c.running, c.status_detail) == (False, "Halftime")
    # The clock stands where the half ended, its added time included (never going back).
    assert c.minute == c.played_seconds // 60 and 2700 <= c.played_seconds <= 2700 + 360
    engine.advance(900 + 60)
    c = engine.clock
    assert c is not None
    assert (c.period, c.running, c.status_detail) == (2, True, "2nd half")
    assert c.minute > 45
    engine.play_out()
    assert engine.clock is None


def test_stoppage_time_shows_injury_time():
    engine = make_engine(FOOTBALL, 11, Scores(), 0.0, False)
    injury = engine.phases[0].injury  # type: ignore[attr-defined]
    engine.advance(2700 + 30)
    c = engine.clock
    assert c is not None
    assert c.minute == 45 and c.injury_time == injury and c.running


def test_find_seed_gives_up_loudly():
    with pytest.raises(LookupError):
        find_seed(SPORT_BY_SLUG["athletics"], lambda s: "ot" in s.periods, tries=20)


def test_combat_break_shows_the_round_just_ended() -> None:
    spec = SPORT_BY_SLUG["boxing"]
    seed = find_seed(spec, lambda s: len([k for k in s.periods if k.startswith("p")]) >= 3)
    engine = make_engine(spec, seed, Scores(), 0.0, True)
    engine.advance(spec.real_s + spec.break_s / 2)  # inside the break after round 1
    c = engine.clock
    assert c is not None
    assert (c.period, c.running, c.status_detail) == (1, False, "End of round 1")
    assert c.played_seconds == spec.real_s
    assert engine.scores.periods["p1"] in ((10, 9), (9, 10)) and "p2" not in engine.scores.periods
    engine.advance(spec.break_s / 2 + 30)  # 30 s into round 2
    c = engine.clock
    assert c is not None
    assert (c.period, c.running, c.status_detail, c.minute) == (2, True, "Round 2", 1)
    assert c.played_seconds == spec.real_s + 30
    assert engine.scores.periods["p2"] == (0, 0)


@pytest.mark.parametrize("slug", ["volleyball", "tennis", "esports"])
def test_the_clock_stops_between_sets(slug: str) -> None:
    spec = SPORT_BY_SLUG[slug]
    engine = make_engine(spec, 4, Scores(), 0.0, False)
    second = "map2" if slug == "esports" else "p2"
    while second not in engine.scores.periods:
        engine.advance(5.0)
    c = engine.clock
    assert c is not None and c.period == 2 and not c.running
    engine.advance(spec.break_s)
    c = engine.clock
    assert c is not None and c.period == 2 and c.running

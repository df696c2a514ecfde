"""The world's catalog and its first state, straight after `World()`."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest
from PIL import Image

from oddstui.service.world import World
from oddstui.service.world.markets import MARKETS_BY_SPORT
from oddstui.service.world.model import CANCELLED, LIVE, PENDING, SETTLED

START = 1_800_000_000.0
SEED_SLUGS = (
    "football basketball tennis baseball american-football ice-hockey esports darts "
    "mixed-martial-arts boxing handball volleyball snooker table-tennis rugby cricket water-polo "
    "futsal beach-volleyball aussie-rules floorball squash beach-soccer lacrosse curling padel "
    "bandy gaelic-football beach-handball athletics badminton cross-country golf cycling"
).split()


@pytest.fixture(scope="module")
def world() -> World:
    return World(seed=1, start=START, real_clock=lambda: 0.0)


def fingerprint(w: World) -> tuple:
    events = sorted(w.events.values(), key=lambda e: e.id)
    live = [e for e in events if e.status == LIVE][:5]
    return (
        [(p.id, p.name, p.has_crest) for p in w.participants.values()],
        [(b.name, b.active, b.margin, b.precision) for b in w.bookmakers.values()],
        [(e.id, e.home.id, e.away.id, e.start, e.status, e.scores.to_wire(), e.bookmakers)
         for e in events],
        [w.odds_record(e, e.bookmakers) for e in live],
    )


def test_same_seed_same_world_and_prices(world):
    again = World(seed=1, start=START, real_clock=lambda: 0.0)
    assert fingerprint(again) == fingerprint(world)


def test_another_seed_another_world(world):
    other = World(seed=2, start=START, real_clock=lambda: 0.0)
    assert [p.name for p in other.participants.values()] != [
        p.name for p in world.participants.values()
    ]


def test_the_34_sports_in_the_seeds_order(world):
    assert list(world.sports) == SEED_SLUGS
    assert all(s.name and s.slug for s in world.sports.values())
    per_sport = Counter(league.sport for league in world.leagues.values())
    assert set(per_sport) == set(SEED_SLUGS)
    assert all(2 <= n <= 6 for n in per_sport.values())
    assert "england-premier-league" in world.leagues
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", slug) for slug in world.leagues)


def test_participant_names_include_awkward_ones(world):
    names = {p.name for p in world.participants.values()}
    for wanted in ("Atlético", "Bodø/Glimt", "Škoda"):
        assert any(wanted in n for n in names), wanted
    assert any("[" in n and "]" in n and "&" in n for n in names)
    assert sum(1 for n in names if not n.isascii()) > 50


def test_crests_are_small_deterministic_pngs_and_some_are_missing(world):
    with_crest = [p for p in world.participants.values() if p.has_crest]
    without = [p for p in world.participants.values() if not p.has_crest]
    share = len(without) / len(world.participants)
    assert 0.04 < share < 0.2
    png = world.crest_png(with_crest[0].id)
    assert png is not None and png.startswith(b"\x89PNG")
    assert Image.open(io.BytesIO(png)).size == (32, 32)
    assert world.crest_png(with_crest[0].id) == png
    assert World(seed=1, start=START, real_clock=lambda: 0.0).crest_png(with_crest[0].id) == png
    assert world.crest_png(with_crest[1].id) != png or with_crest[1].id == with_crest[0].id
    assert world.crest_png(without[0].id) is None
    assert world.crest_png(-1) is None


def test_bookmakers(world):
    books = list(world.bookmakers.values())
    assert len(books) == 265
    assert sum(b.active for b in books) >= 250
    assert sum(not b.active for b in books) <= 0.05 * 265
    assert [b.name for b in books[:5]] == ["Bet365", "Pinnacle", "SingBet", "Betfair Exchange",
                                          "Unibet"]
    sharp = [b for b in books if b.sharp]
    assert {b.name for b in sharp} == {"Pinnacle", "SingBet"}
    soft = sorted(b.margin for b in books if not b.sharp)
    assert max(b.margin for b in sharp) < 0.025 < 0.04 < soft[len(soft) // 2]
    assert {b.precision for b in books} == {2, 3}
    assert len({b.name for b in books}) == 265
    assert 10 <= len(world.default_selection) <= 14
    assert all(world.bookmakers[n].active for n in world.default_selection)


@pytest.mark.parametrize("count", [30, 1000])
def test_bookmaker_count_flag_range(count):
    w = World(seed=3, bookmakers=count, start=START, real_clock=lambda: 0.0)
    assert len(w.bookmakers) == count
    assert sum(b.active for b in w.bookmakers.values()) >= 0.94 * count


def test_more_than_100_market_types(world):
    assert len(world.market_types()) > 100
    football = set(world.market_types("football"))
    for name in ("ML", "Spread", "Totals", "ML HT", "Spread HT", "Totals HT", "Team Total Home",
                 "Team Total Away", "Corners Spread", "Corners Totals", "Corners Spread HT",
                 "Corners Totals HT", "Bookings Spread", "Bookings Totals", "Player Props",
                 "Both Teams To Score", "Double Chance", "Draw No Bet"):
        assert name in football
    assert {"Totals 1Q", "Spread 1Q"} <= set(world.market_types("basketball"))
    assert all(MARKETS_BY_SPORT[s][0].name == "ML" for s in SEED_SLUGS)


def test_every_status_and_the_time_windows(world):
    statuses = Counter(e.status for e in world.events.values())
    assert all(statuses[s] > 0 for s in (PENDING, LIVE, SETTLED, CANCELLED))
    pending = [e.start - START for e in world.events.values() if e.status == PENDING]
    assert max(pending) > 13 * 86400 and max(pending) <= 14 * 86400
    assert any(0 < p <= 300 for p in pending)
    past = [START - e.start for e in world.events.values() if e.status in (SETTLED, CANCELLED)]
    assert 44 * 86400 < max(past) <= 45 * 86400
    assert world.events
    assert all(isinstance(e.id, int) and e.id > 0 for e in world.events.values())


def test_live_in_at_least_ten_sports_from_the_start(world):
    live = [e for e in world.events.values() if e.status == LIVE]
    assert len({e.sport.slug for e in live}) >= 10
    for event in live:
        assert event.clock is not None
        wire = event.to_wire()
        assert "clock" in wire and wire["status"] == "live"
    starts = {round(START - e.start) for e in live}
    assert len(starts) == len(live) or len(starts) > len(live) // 2  # at various points


def test_settled_events_have_final_scores(world):
    settled = [e for e in world.events.values() if e.status == SETTLED]
    assert settled
    assert all("ft" in e.scores.periods for e in settled)
    assert any(e.scores.home + e.scores.away > 0 for e in settled)
    assert all(e.to_wire().get("clock") is None for e in settled)


def test_books_per_event(world):
    counts = [len(e.bookmakers) for e in world.events.values()]
    assert min(counts) >= 10 and max(counts) <= 60
    assert sum(c >= 30 for c in counts) > 0.2 * len(counts)
    defaults = set(world.default_selection)
    covered = [len(defaults & set(e.bookmakers)) / len(defaults) for e in world.events.values()]
    assert sum(covered) / len(covered) > 0.9
    assert world.events
    assert all(world.bookmakers[b].active for e in world.events.values() for b in e.bookmakers)

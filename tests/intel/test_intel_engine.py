"""The intel engine on synthetic series whose answers are known: lags, a censored follower, a
sister pair and a steam event, each recovered within the stated tolerance."""

from __future__ import annotations

import pytest

from oddstui.intel.behind import still_behind
from oddstui.intel.engine import IntelEngine
from oddstui.intel.merge import merge
from oddstui.intel.report import report_of
from oddstui.intel.resolution import Resolution
from oddstui.intel.settings import IntelSettings
from oddstui.intel.survival import count_followed, km_quantiles
from tests.intel.synthetic import SHARP, open_line, sharp_move, two_way

MOVES = 40


def _figures(engine: IntelEngine) -> dict[str, object]:
    engine.finish()
    return {b.bookmaker: b for b in report_of(engine).books}


def test_lags_are_recovered_from_known_delays() -> None:
    """Fast follows after 2 s + up to 0.39 s, slow after 20 s + up to 3.9 s: the medians and
    p90s are the delays' own, to within the spread of one step."""
    engine = IntelEngine(IntelSettings(tau=1.0))
    for i in range(MOVES):
        key, t0 = (i, "ML", (None, None)), i * 1000.0
        open_line(engine, key, t0, 0.50, {"Fast": 0.05, "Slow": 0.07})
        sharp_move(engine, key, t0 + 10.0, 0.50, 0.56)
        engine.observe(t0 + 12.0 + i * 0.01, key, "Fast", two_way(0.56, 0.05))
        engine.observe(t0 + 30.0 + i * 0.1, key, "Slow", two_way(0.555, 0.07))
    books = _figures(engine)
    fast, slow = books["Fast"], books["Slow"]
    assert fast.follows == MOVES and fast.censored == 0
    assert fast.lag_median == pytest.approx(2.0 + 0.19, abs=0.02)
    assert fast.lag_p90 == pytest.approx(2.0 + 0.35, abs=0.02)
    assert slow.lag_median == pytest.approx(20.0 + 1.9, abs=0.2)
    assert slow.lag_p90 == pytest.approx(20.0 + 3.5, abs=0.2)
    assert books["Pinnacle"].sharp and books["Pinnacle"].follows == 0
    assert report_of(engine).sharp_moves == MOVES


def test_a_small_follow_or_a_move_that_does_not_hold_is_no_follow() -> None:
    engine = IntelEngine(IntelSettings(tau=5.0, horizon=100.0))
    key = (1, "ML", (None, None))
    open_line(engine, key, 0.0, 0.50, {"Timid": 0.05})
    sharp_move(engine, key, 10.0, 0.50, 0.56)  # a 12 % move: half of it is 6 %
    engine.observe(12.0, key, "Timid", two_way(0.51, 0.05))  # 2 %: not a follow
    engine.observe(500.0, key, "Timid", two_way(0.51, 0.05))
    blip = (2, "ML", (None, None))
    open_line(engine, blip, 600.0, 0.50, {"Timid": 0.05})
    sharp_move(engine, blip, 610.0, 0.50, 0.56)
    sharp_move(engine, blip, 612.0, 0.56, 0.50)  # back within τ: no sharp move
    engine.observe(700.0, blip, "Timid", two_way(0.56, 0.05))
    books = _figures(engine)
    assert report_of(engine).sharp_moves == 1
    assert books["Timid"].follows == 0 and books["Timid"].censored == 1


def test_a_drift_of_small_steps_is_no_move_a_jump_within_tau_is() -> None:
    """A sharp move is a jump within τ. A drift of 1 % steps a minute apart, which a follower
    tracks step by step, is none (measured from where the last move left it, it was a move timed
    at its last step, waiting for a follow the follower had already made); a jump in two steps a
    second apart is one move, its lag timed from its first step."""
    engine = IntelEngine(IntelSettings(tau=3.0, horizon=100.0))
    key = (1, "ML", (None, None))
    open_line(engine, key, 0.0, 0.50, {"Tracker": 0.05})
    p = 0.50
    for step in range(1, 9):  # 0.50 to 0.54: 8 % in all
        p = 0.50 + 0.005 * step
        sharp_move(engine, key, step * 60.0, p - 0.005, p)
        engine.observe(step * 60.0 + 5.0, key, "Tracker", two_way(p, 0.05))
    engine.advance(599.0)
    assert engine.sharp_moves == 0
    engine.observe(600.0, key, "Pinnacle", two_way(0.62, 0.02))  # the fair: 0.54 to 0.58
    engine.observe(601.0, key, "SingBet", two_way(0.62, 0.02))  # and on to 0.62
    engine.observe(608.0, key, "Tracker", two_way(0.62, 0.05))
    books = _figures(engine)
    assert report_of(engine).sharp_moves == 1
    assert (books["Tracker"].follows, books["Tracker"].censored) == (1, 0)
    assert books["Tracker"].lag_median == pytest.approx(8.0)


def test_a_censored_follower_is_kaplan_meier_not_a_mean() -> None:
    """Half the moves followed after 10 s, half never: the median is 10 s (a mean of the
    follows seen would say 10 s too, but n and the censored count tell them apart), the p90 is
    unknown; a book that never follows has no median at all."""
    engine = IntelEngine(IntelSettings(tau=1.0, horizon=300.0))
    for i in range(MOVES):
        key, t0 = (i, "ML", (None, None)), i * 1000.0
        open_line(engine, key, t0, 0.40, {"Half": 0.05, "Never": 0.06})
        sharp_move(engine, key, t0 + 10.0, 0.40, 0.46)
        if i % 2 == 0:
            engine.observe(t0 + 20.0, key, "Half", two_way(0.46, 0.05))
        engine.observe(t0 + 900.0, key, "Never", two_way(0.40, 0.06))
    books = _figures(engine)
    half, never = books["Half"], books["Never"]
    assert (half.follows, half.censored) == (MOVES // 2, MOVES // 2)
    assert half.lag_median == pytest.approx(10.0)
    assert half.lag_p90 is None
    assert (never.follows, never.censored) == (0, MOVES)
    assert never.lag_median is None
    assert never.stale_n == MOVES and never.stale_median is None  # stale past the horizon


def test_a_sister_copying_its_parent_is_one_cluster() -> None:
    """`Copy` moves to `Parent`'s price (its own margin) a second after each of its changes;
    `Other` moves the same way at other times and to its own prices."""
    engine = IntelEngine(IntelSettings(tau=1.0))
    p = 0.5
    for i in range(60):
        key, t0 = (i % 6, "ML", (None, None)), i * 50.0
        step = 0.03 if i % 3 else -0.03
        p = min(0.8, max(0.2, p + step))
        engine.observe(t0, key, "Parent", two_way(p, 0.05))
        engine.observe(t0 + 1.0, key, "Copy", two_way(p, 0.08))
        engine.observe(t0 + 1.5, key, "Other", two_way(p * 1.01, 0.06))
    engine.finish()
    clusters = engine.clusters()
    assert clusters["Copy"] == "Parent" and clusters["Parent"] == "Parent"
    assert clusters["Other"] == "Other"
    assert engine.sisters.sister_of(engine.settings.sister_share) == {"Copy": "Parent"}


def test_steam_counts_independent_clusters_and_names_the_stale_books() -> None:
    """The sharp book, two independent books and a sister move the same way within W: three
    clusters (the sister is not a fourth) with k = 3 is steam; `Late`, still where it was, is
    stale. With k = 4 the same moves are no steam."""
    for k, steams in ((3, 1), (4, 0)):
        engine = IntelEngine(IntelSettings(tau=1.0, k=k, sharp=("Pinnacle",)))
        for i in range(30):  # teach the engine that Copy copies A
            key = (100 + i, "ML", (None, None))
            engine.observe(i * 100.0, key, "A", two_way(0.5, 0.05))
            engine.observe(i * 100.0, key, "Copy", two_way(0.5, 0.07))
            engine.observe(i * 100.0 + 10, key, "A", two_way(0.5 + 0.01 * (i % 3 + 1), 0.05))
            engine.observe(i * 100.0 + 11, key, "Copy", two_way(0.5 + 0.01 * (i % 3 + 1), 0.07))
        key, t0 = (1, "ML", (None, None)), 10_000.0
        books = {"A": 0.05, "B": 0.06, "Copy": 0.07, "Late": 0.05}
        for book, margin in {"Pinnacle": 0.02, **books}.items():
            engine.observe(t0, key, book, two_way(0.5, margin))
        engine.observe(t0 + 10, key, "Pinnacle", two_way(0.55, 0.02))
        engine.observe(t0 + 15, key, "A", two_way(0.55, 0.05))
        engine.observe(t0 + 16, key, "Copy", two_way(0.55, 0.07))
        engine.observe(t0 + 30, key, "B", two_way(0.56, 0.06))
        engine.finish()
        found = [s for s in engine.steam() if s.key == key]
        assert len(found) == steams
        if steams:
            steam = found[0]
            assert (steam.origin, steam.breadth, steam.books) == ("Pinnacle", 3, 4)
            assert steam.direction == -1  # "away" is the first side: its probability fell
            assert steam.size == pytest.approx(0.12, abs=0.01)
            assert steam.points == pytest.approx(0.06, abs=0.002)  # 50 % to 44 %
            assert steam.stale == ("Late",)


def test_steam_on_a_long_shot_is_sized_in_probability_points() -> None:
    """A long shot's chance from 10 % to 20 % doubles it (a 100 % move of its probability):
    its steam is ten percentage points, as the same move named from the favourite's side
    (90 % to 80 %) is."""
    engine = IntelEngine(IntelSettings(tau=1.0, k=3, sharp=("Pinnacle",)))
    key, t0 = (1, "ML", (None, None)), 100.0
    books = {"Pinnacle": 0.02, "A": 0.04, "B": 0.05}
    for book, margin in books.items():
        engine.observe(t0, key, book, two_way(0.90, margin))  # "away" (first) is the long shot
    for i, (book, margin) in enumerate(books.items()):
        engine.observe(t0 + 10 + i, key, book, two_way(0.80, margin))
    engine.finish()
    (steam,) = engine.steam()
    assert steam.direction == 1 and steam.breadth == 3
    assert steam.size == pytest.approx(1.0, abs=0.05)
    assert steam.points == pytest.approx(0.10, abs=0.003)


def test_leadership_goes_to_the_first_mover() -> None:
    engine = IntelEngine(IntelSettings(tau=1.0))
    for i in range(10):
        key, t0 = (i, "ML", (None, None)), i * 1000.0
        open_line(engine, key, t0, 0.5, {"Soft": 0.05})
        sharp_move(engine, key, t0 + 10.0, 0.5, 0.55)
        engine.observe(t0 + 20.0, key, "Soft", two_way(0.55, 0.05))
    books = _figures(engine)
    assert books["Soft"].led_share == 0.0
    leads = [books[b].led_share for b in SHARP]
    assert sum(x or 0.0 for x in leads) == pytest.approx(1.0)


def test_a_value_edge_is_a_stale_line_until_it_goes() -> None:
    engine = IntelEngine(IntelSettings(epsilon=0.03))
    key = (1, "ML", (None, None))
    open_line(engine, key, 0.0, 0.5, {"Generous": 0.05})
    engine.observe(10.0, key, "Generous", {"home": 2.2, "away": 1.75})  # EV 10 % on home
    engine.observe(25.0, key, "Generous", two_way(0.5, 0.05))
    books = _figures(engine)
    assert books["Generous"].stale_n == 1 and books["Generous"].stale_median == 15.0


def test_kaplan_meier_quantiles() -> None:
    assert km_quantiles([]) == (None, None)
    assert km_quantiles([(1.0, True), (2.0, True), (3.0, True), (4.0, True)]) == (2.0, 4.0)
    # A censored sample at 1.5 leaves the later ones to carry the curve.
    assert km_quantiles([(1.0, True), (1.5, False), (2.0, True), (3.0, True)]) == (2.0, 3.0)
    # Follows and censorings at one time count together, whatever their order: two of four
    # follow at 1.0 (a half), the censored one at 1.0 is at risk until then.
    for tied in ([(1.0, True), (1.0, False), (1.0, True), (2.0, True)],
                 [(1.0, False), (1.0, True), (1.0, True), (2.0, True)]):
        assert km_quantiles(tied) == (1.0, 2.0)
        assert km_quantiles(tied, (0.9, 0.5)) == (2.0, 1.0)
        assert count_followed(tied) == 3
    # The curve stops short of 0.9 when too many are censored.
    assert km_quantiles([(1.0, True), (2.0, False), (3.0, False)]) == (None, None)
    assert km_quantiles([(1.0, True), (1.5, True), (2.0, False), (3.0, False)]) == (1.5, None)


@pytest.mark.parametrize(("times", "seconds"), [
    ([1.0, 2.0, 5.0], 1.0), ([1.5, 2.0], 0.1), ([1.25, 2.5], 0.01), ([1.2345], 0.001),
])
def test_resolution_is_the_coarsest_grid_every_time_fits(times: list[float],
                                                         seconds: float) -> None:
    resolution = Resolution()
    for t in times:
        resolution.see(1_795_808_000.0 + t)
    assert resolution.seconds == seconds


def test_a_finished_event_is_forgotten_and_its_open_follows_censored_there() -> None:
    """The desk's engine runs all day: an event that ends leaves no lines behind. A move still
    unfollowed when it ended is censored at the end (no book can follow any more), not at the
    horizon; the other event's lines and figures are untouched."""
    engine = IntelEngine(IntelSettings(tau=1.0, horizon=300.0))
    ended, going = (1, "ML", (None, None)), (2, "ML", (None, None))
    for key in (ended, going):
        open_line(engine, key, 0.0, 0.40, {"Slow": 0.05})
        sharp_move(engine, key, 10.0, 0.40, 0.46)
    engine.in_play.update({1, 2})
    engine.observe(20.0, going, "Slow", two_way(0.46, 0.05))
    assert engine.open_moves() and ended in engine.lines
    engine.event_ended(1, 40.0)
    assert ended not in engine.lines and going in engine.lines
    assert engine.in_play == {2}
    assert not engine.open_moves()
    slow = engine.books["Slow"]
    assert sorted(slow.follows) == [(10.0, True), (30.0, False)]
    engine.advance(1000.0)  # its move's horizon passes: nothing more is counted for it
    assert len(slow.follows) == 2


def test_a_book_that_stops_quoting_leaves_every_move_it_was_behind() -> None:
    """A book behind two sharp moves of one line withdraws its prices: its stale line ends on
    both (censored there), even when that empties and closes the first move (the move after a
    closed one was once skipped, leaving a stale line with no price on the Stale lines board)."""
    engine = IntelEngine(IntelSettings(tau=1.0))
    key = (1, "Totals", (2.5, None))
    open_line(engine, key, 0.0, 0.40, {"Slow": 0.05, "Other": 0.05})
    sharp_move(engine, key, 10.0, 0.40, 0.46)
    engine.observe(15.0, key, "Other", two_way(0.46, 0.05))  # follows the first move only
    sharp_move(engine, key, 20.0, 0.46, 0.52)
    engine.advance(25.0)
    assert [sorted(move.pending) for move in engine.open_moves()] == [["Slow"], ["Other", "Slow"]]
    engine.observe(30.0, key, "Slow", None)  # withdrawn
    pending = [sorted(move.pending) for move in engine.open_moves()]
    assert pending == [["Other"]]
    assert sorted(engine.books["Slow"].follows) == [(10.0, False), (20.0, False)]


def test_steam_is_listed_by_when_it_began_in_one_engine_and_merged() -> None:
    """Line 2's steam begins after line 1's but ends first (a move back ends its episode): the
    list is by start, so one engine and engines merged from a share each (`oddstui books`
    with several workers) list it alike."""
    books = {"Pinnacle": 0.02, "A": 0.04, "B": 0.05}
    lines = ((1, "ML", (None, None)), (2, "ML", (None, None)))

    changes: list[tuple[float, object, str, dict[str, float]]] = []
    for offset, key in enumerate(lines):
        t0 = 100.0 + offset
        for i, (book, margin) in enumerate(books.items()):
            changes.append((t0, key, book, two_way(0.5, margin)))
            changes.append((t0 + 10 + i, key, book, two_way(0.55, margin)))
        if offset:  # the sharp book moves back: line 2's episode ends at once
            changes.append((t0 + 14, key, "Pinnacle", two_way(0.45, 0.02)))
    changes.sort(key=lambda change: change[0])  # the engine is fed in time order

    def watched(keys: tuple[object, ...]) -> IntelEngine:
        engine = IntelEngine(IntelSettings(tau=1.0, k=3, sharp=("Pinnacle",)))
        for t, key, book, prices in changes:
            if key in keys:
                engine.observe(t, key, book, prices)
        engine.finish()
        return engine

    one = watched(lines)
    assert [episode.key for episode in one.episodes] == [lines[1], lines[0]]  # as they ended
    assert [steam.key for steam in one.steam()] == list(lines)
    merged = merge([watched(lines[1:]), watched(lines[:1])])
    assert merged.steam() == one.steam()


def test_a_move_the_sharp_price_takes_back_is_over_for_every_book_behind_it() -> None:
    """In play a point moves the price both ways: once the sharp price is back on the old side
    (it keeps less than half the move), the books still behind the move are on the current side
    again. Their follows are censored there and their stale lines end: they are not kept open
    to the horizon, and a later move of theirs is no follow of a move that is gone."""
    engine = IntelEngine(IntelSettings(tau=1.0, horizon=300.0))
    key = (1, "ML", (None, None))
    open_line(engine, key, 0.0, 0.40, {"Slow": 0.05, "Quick": 0.05})
    sharp_move(engine, key, 10.0, 0.40, 0.46)
    engine.observe(12.0, key, "Quick", two_way(0.46, 0.05))
    engine.advance(15.0)
    assert [still_behind(move, move.line) for move in engine.open_moves()] == [["Slow"]]
    sharp_move(engine, key, 30.0, 0.46, 0.42)  # 0.42 keeps a third of the move: taken back
    engine.advance(35.0)
    # The move back is a sharp move of its own: Quick is behind it, Slow on its new side.
    assert [still_behind(move, move.line) for move in engine.open_moves()] == [["Quick"]]
    slow = engine.books["Slow"]
    assert slow.follows == [(20.0, False)] and slow.stale == [(20.0, True)]
    engine.observe(60.0, key, "Slow", two_way(0.46, 0.05))
    engine.advance(1000.0)
    assert (20.0, False) in slow.follows and not any(followed for _, followed in slow.follows)
    assert slow.stale == [(20.0, True)]
    assert engine.books["Quick"].follows[0] == (2.0, True)


def test_a_move_kept_more_than_half_is_still_followed() -> None:
    """A sharp price that gives back less than half its move has not taken it back."""
    engine = IntelEngine(IntelSettings(tau=1.0, horizon=300.0))
    key = (1, "ML", (None, None))
    open_line(engine, key, 0.0, 0.40, {"Slow": 0.05})
    sharp_move(engine, key, 10.0, 0.40, 0.46)
    sharp_move(engine, key, 30.0, 0.46, 0.44)  # two thirds of the move kept
    assert [still_behind(move, move.line) for move in engine.open_moves()] == [["Slow"]]
    engine.observe(40.0, key, "Slow", two_way(0.44, 0.05))
    assert engine.books["Slow"].follows == [(30.0, True)]


def test_a_book_already_on_the_new_side_is_not_behind_the_move() -> None:
    """A book whose price is already past half-way to where the sharp price moved (it moved
    first, or its view was there) has no price on the old side: no stale line (its follow is
    still timed from where it stood); a book that gets past half-way by a small move of its
    own is not behind it any more either."""
    engine = IntelEngine(IntelSettings(tau=1.0, horizon=300.0))
    key = (1, "ML", (None, None))
    open_line(engine, key, 0.0, 0.40, {"Slow": 0.05})
    # past half-way to 0.46, its margin wide enough for no edge on either side (ε: a stale
    # line by its edge, as any price)
    engine.observe(5.0, key, "Ahead", two_way(0.445, 0.10))
    engine.observe(5.0, key, "Short", two_way(0.41, 0.05))  # not yet half-way
    sharp_move(engine, key, 10.0, 0.40, 0.46)
    engine.advance(15.0)
    [move] = engine.open_moves()
    assert still_behind(move, move.line) == ["Slow", "Short"]
    engine.observe(20.0, key, "Short", two_way(0.42, 0.05))  # half-way, a small move of its own
    assert still_behind(move, move.line) == ["Slow"] and "Short" in move.pending
    engine.finish(400.0)
    assert engine.books["Ahead"].stale == []
    assert engine.books["Slow"].follows == [(300.0, False)]
    assert engine.books["Slow"].stale == [(390.0, False)]  # its edge outlived the horizon


def test_a_book_past_half_way_is_still_judged_by_its_edge() -> None:
    """No stale line on the old side of the move, but a price with EV above ε against the fair
    price is a stale line all the same (the move's follow does not hide it)."""
    engine = IntelEngine(IntelSettings(tau=1.0, horizon=300.0, epsilon=0.03))
    key = (1, "ML", (None, None))
    open_line(engine, key, 0.0, 0.40, {"Slow": 0.05})
    # past the move it is ahead of, with no edge yet (a wide margin)
    engine.observe(5.0, key, "Over", two_way(0.47, 0.15))
    sharp_move(engine, key, 10.0, 0.40, 0.46)
    engine.advance(15.0)
    [move] = engine.open_moves()
    assert "Over" in move.ahead
    engine.observe(20.0, key, "Over", two_way(0.51, 0.05))  # its away side: EV above ε
    assert engine.edge(engine.lines[key], "Over") > 0.03  # type: ignore[operator]
    assert [(book, since) for _, book, since in engine.value_stale()] == [("Over", 20.0)]

"""Each sport's clock text from the wire's clock fields, and the hold that keeps a clock from
stepping back: pure functions."""

from __future__ import annotations

import pytest

from oddstui.book.match_clock import (
    SPORT_CLOCKS,
    clock_text,
    held_played,
    scoring_word,
    shows_clock,
)


@pytest.mark.parametrize(
    ("period", "played", "shown"),
    [
        (1, 0, "1'"),
        (1, 59, "1'"),
        (1, 60 * 44 + 30, "45'"),
        (1, 2700, "45+1'"),  # the 46th minute of the first half is added time
        (1, 2700 + 65, "45+2'"),
        (2, 2700, "46'"),
        (2, 5400 + 10, "90+1'"),
        (3, 5400 + 60 * 5, "96'"),  # extra time counts on
        (3, 6300 + 30, "105+1'"),
    ],
)
def test_football_counts_up_with_added_time(period: int, played: int, shown: str) -> None:
    assert clock_text("football", period, played, True) == shown


def test_football_at_half_time_says_so() -> None:
    assert clock_text("football", 1, 2700, False, "Halftime") == "HT"


def test_a_break_between_periods_says_so() -> None:
    assert clock_text("beach-soccer", 1, 720, False, "Break") == "Break"
    assert clock_text("ice-hockey", 2, 2400, False, "Break before overtime") == "Break"
    assert clock_text("tennis", 2, 900, False, "2nd set", {"p2": (0, 0)}) == "S2 0-0"


@pytest.mark.parametrize(
    ("sport", "period", "played", "shown"),
    [
        ("basketball", 4, 3 * 720 + 720 - 432, "Q4 7:12"),
        ("basketball", 1, 0, "Q1 12:00"),
        ("basketball", 5, 4 * 720 + 60, "OT 4:00"),
        ("basketball", 6, 4 * 720 + 300 + 300, "OT2 0:00"),
        ("ice-hockey", 3, 2 * 1200 + 1200 - 760, "P3 12:40"),
        ("handball", 2, 1800 + 1800 - 845, "H2 14:05"),
        ("american-football", 4, 3 * 900 + 100, "Q4 13:20"),
        ("water-polo", 2, 480 + 1, "Q2 7:59"),
        ("floorball", 1, 1200 + 99, "P1 0:00"),  # past the period's end: never negative
        ("mixed-martial-arts", 2, 300 + 46, "R2 4:14"),
    ],
)
def test_stop_clock_sports_count_the_period_down(
    sport: str, period: int, played: int, shown: str
) -> None:
    assert clock_text(sport, period, played, True) == shown


def test_a_service_counting_each_period_from_zero_reads_the_same() -> None:
    assert clock_text("basketball", 4, 720 - 432, True) == "Q4 7:12"
    assert clock_text("football", 2, 600, True) == "56'"


@pytest.mark.parametrize(
    ("detail", "played", "shown"),
    [
        ("Top 7th", 0, "▲7"),
        ("Bottom 7th", 0, "▼7"),
        ("7th inning", 6 * 1200 + 100, "▲7"),
        ("7th inning", 6 * 1200 + 700, "▼7"),
    ],
)
def test_baseball_shows_the_half_inning(detail: str, played: int, shown: str) -> None:
    assert clock_text("baseball", 7, played, True, detail) == shown


def test_cricket_shows_overs_and_no_clock() -> None:
    assert clock_text("cricket", 1, 14 * 270 + 3 * 45, True, "1st innings") == "14.3 ov"
    assert clock_text("cricket", 2, 5400 + 270, True, "2nd innings") == "1.0 ov"
    assert clock_text("cricket", 2, 5400 + 270, True, "2nd innings 7.4 ov") == "7.4 ov"


def test_set_sports_show_the_set_score_and_no_clock() -> None:
    periods = {"p1": (6, 4), "p2": (4, 3), "currentgame": (30, 15)}
    assert clock_text("tennis", 2, 4000, True, "2nd set", periods) == "S2 4-3"
    assert clock_text("badminton", 3, 900, True, "3rd game", {"p3": (18, 15)}) == "G3 18-15"
    assert clock_text("esports", 2, 900, True, "Map 2", {"map2": (8, 5)}) == "M2 8-5"
    assert clock_text("snooker", 5, 900, True, "5th frame", {"p5": (45, 12)}) == "F5 45-12"
    assert clock_text("volleyball", 1, 0, True) == "S1"
    for sport in ("tennis", "badminton", "darts", "snooker", "esports", "volleyball"):
        assert not shows_clock(sport)
        assert ":" not in clock_text(sport, 1, 3000, True, "", {"p1": (1, 1)})


def test_golf_shows_the_hole() -> None:
    assert clock_text("golf", 1, 0, True, "Round") == "Hole 1"
    assert clock_text("golf", 1, 14400 - 1, True, "Round") == "Hole 18"
    assert clock_text("golf", 1, 5000, True, "Thru 11") == "Hole 11"


def test_races_and_unknown_sports_count_up() -> None:
    assert clock_text("athletics", 1, 845, True) == "14:05"
    assert clock_text("cycling", 1, 2 * 3600 + 65, True) == "2:01:05"
    assert clock_text("sumo", 1, 65, True) == "1:05"
    assert clock_text("sumo", 1, 0, False) == ""


def test_every_sport_names_its_scoring() -> None:
    assert scoring_word("football") == "goal"
    assert scoring_word("badminton") == "game"
    assert scoring_word("tennis") == "set"
    assert scoring_word("baseball") == "run"
    assert scoring_word("basketball") == "basket"
    assert all(spec.scoring for spec in SPORT_CLOCKS.values())


def test_a_clock_behind_the_shown_one_holds_within_a_period_only() -> None:
    assert held_played(shown=1150, wire=1141, same_period=True) == 1150
    assert held_played(shown=1150, wire=1160, same_period=True) == 1160
    assert held_played(shown=1150, wire=10, same_period=False) == 10

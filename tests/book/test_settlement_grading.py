"""`grade_leg`: every market a final score decides, graded from the score by period; the rest
ungradeable with a reason (the rule behind /settlements/grade, the bet log and the backtest)."""

from __future__ import annotations

import pytest

from oddstui.book.settlement import ScoreSheet, grade_leg

# A cup tie: 1-1 after 90 minutes, 2-1 after extra time.
CUP = ScoreSheet(2, 1, {"p1": (0, 1), "p2": (1, 0), "ft": (1, 1), "ot": (1, 0)})
# Basketball: quarters 20-25, 30-20, 22-22, 18-20 (90-87).
HOOPS = ScoreSheet(90, 87, {"p1": (20, 25), "p2": (30, 20), "p3": (22, 22), "p4": (18, 20)})
# Tennis: 6-4 3-6 7-6, two sets to one; 16 games each.
TENNIS = ScoreSheet(2, 1, {"p1": (6, 4), "p2": (3, 6), "p3": (7, 6), "ft": (2, 1)})


@pytest.mark.parametrize(
    ("sport", "score", "market", "hdp", "side", "label", "verdict"),
    [
        # football on 90 minutes: a draw, whatever extra time did
        ("football", CUP, "ML", None, "draw", "", "won"),
        ("football", CUP, "ML", None, "home", "", "lost"),
        ("football", CUP, "Draw No Bet", None, "home", "", "void"),
        ("football", CUP, "Totals", 2.25, "over", "", "half_lost"),
        ("football", CUP, "Totals", 1.75, "over", "", "half_won"),
        ("football", CUP, "Spread", -0.25, "home", "", "half_lost"),  # hdp: the home line
        ("football", CUP, "Spread", -0.25, "away", "", "half_won"),
        ("football", CUP, "Spread", 0.0, "home", "", "void"),
        ("football", CUP, "ML HT", None, "away", "", "won"),
        ("football", CUP, "Totals 2H", 0.5, "over", "", "won"),
        ("football", CUP, "Both Teams To Score", None, "yes", "", "won"),
        ("football", CUP, "Both Teams To Score HT", None, "yes", "", "lost"),
        ("football", CUP, "Double Chance", None, "yes", "Home or Away", "lost"),
        ("football", CUP, "Double Chance", None, "yes", "Draw or Away", "won"),
        ("football", CUP, "Clean Sheet Home", None, "no", "", "won"),
        ("football", CUP, "Goal In Both Halves", None, "yes", "", "won"),
        ("football", CUP, "Team Total Away", 0.75, "over", "", "half_won"),
        # basketball: halves are two quarters each; no draw, overtime counts
        ("basketball", HOOPS, "ML", None, "home", "", "won"),
        ("basketball", HOOPS, "Spread HT", -4.5, "home", "", "won"),
        ("basketball", HOOPS, "Totals 2H", 82.0, "over", "", "void"),
        ("basketball", HOOPS, "ML 3Q", None, "home", "", "void"),
        ("basketball", HOOPS, "Spread 1Q", 5.5, "home", "", "won"),
        # tennis: ML on sets, Spread and Totals on games, sets and single sets apart
        ("tennis", TENNIS, "ML", None, "home", "", "won"),
        ("tennis", TENNIS, "Spread", -1.5, "home", "", "lost"),
        ("tennis", TENNIS, "Totals", 31.5, "over", "", "won"),
        ("tennis", TENNIS, "Games Totals", 32.0, "under", "", "void"),
        ("tennis", TENNIS, "Sets Spread", -1.5, "home", "", "lost"),
        ("tennis", TENNIS, "Set 2 ML", None, "away", "", "won"),
        ("tennis", TENNIS, "Set 3 Totals", 12.5, "over", "", "won"),
        ("tennis", TENNIS, "Away Wins A Set", None, "yes", "", "won"),
    ],
)
def test_a_market_the_score_decides(sport, score, market, hdp, side, label, verdict) -> None:
    grade = grade_leg(sport, market, hdp, side, score, label=label)
    assert grade.verdict == verdict, grade
    assert grade.reason == ""


@pytest.mark.parametrize(
    ("market", "hdp", "side", "words"),
    [
        ("Corners Totals", 9.5, "over", "does not decide"),
        ("Player Props", 1.5, "over", "does not decide"),
        ("Own Goal", None, "yes", "does not decide"),
        ("Spread", None, "home", "needs a line"),
        ("Totals", 2.5, "home", "side"),
        ("Both Teams To Score", None, "over", "yes or no"),
        ("Double Chance", None, "yes", "does not decide"),  # no label
        ("Totals 3Q", 1.5, "over", "does not decide"),  # football has two periods
    ],
)
def test_the_rest_is_ungradeable_with_a_reason(market, hdp, side, words) -> None:
    grade = grade_leg("football", market, hdp, side, CUP)
    assert grade.verdict == "ungradeable" and grade.result is None
    assert words in grade.reason


def test_names_read_case_and_space_insensitively() -> None:
    assert grade_leg("football", "  totals   ht ", 0.5, "OVER", CUP).verdict == "won"


def test_a_lay_is_the_back_sides_opposite() -> None:
    assert grade_leg("football", "ML", None, "layHome", CUP).verdict == "won"
    assert grade_leg("football", "ML", None, "layDraw", CUP).verdict == "lost"
    assert grade_leg("football", "Totals", 2.25, "layOver", CUP).verdict == "half_won"
    assert grade_leg("football", "Spread", 0.0, "layHome", CUP).verdict == "void"
    assert grade_leg("football", "Corners Totals", 9.5, "layOver", CUP).verdict == "ungradeable"


def test_score_decided_extras_of_sets_and_handball() -> None:
    assert grade_leg("tennis", "Tie Break In Match", None, "yes", TENNIS).verdict == "won"
    straight = ScoreSheet(2, 0, {"p1": (6, 4), "p2": (6, 3), "ft": (2, 0)})
    assert grade_leg("tennis", "Tie Break In Match", None, "yes", straight).verdict == "lost"
    five = ScoreSheet(3, 2, {f"p{n}": (25, 20) for n in range(1, 6)})
    assert grade_leg("volleyball", "Set 5 Played", None, "yes", five).verdict == "won"
    assert grade_leg("volleyball", "Set 5 ML", None, "home", five).verdict == "won"
    high = ScoreSheet(31, 27, {"p1": (15, 14), "p2": (16, 13), "ft": (31, 27)})
    assert grade_leg("handball", "Both Teams Over 25", None, "yes", high).verdict == "won"
    pistol = grade_leg("esports", "Map 1 Pistol Round Home", None, "yes", TENNIS)
    assert pistol.verdict == "ungradeable" and "does not decide" in pistol.reason

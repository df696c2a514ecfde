"""Edges a trader believes: a service arbitrage with every leg at one bookmaker is dropped, a
stale leg or one quoted before the match changed makes a row suspect, and ages count on the
service's clock. Pure: no textual, no service."""

from __future__ import annotations

from oddstui.api.models import ArbitrageBet, ArbitrageLeg
from oddstui.book.service_clock import ServiceClock
from oddstui.book.suspect import suspicion
from oddstui.config import Settings
from oddstui.tui.boards.arbitrage.arb_rows import ArbRows
from oddstui.tui.kit.service_clock import service_time, stale_after


def leg(bookmaker: str, side: str, odds: float) -> ArbitrageLeg:
    return ArbitrageLeg(bookmaker, side, side.capitalize(), odds, None, None, None)


def bet(ident: str, *legs: ArbitrageLeg) -> ArbitrageBet:
    implied = sum(1 / item.odds for item in legs)
    return ArbitrageBet(
        ident, 7, None, implied, (1 / implied - 1) * 100, 100.0, None, "Totals", 26.5, legs, ()
    )


def test_a_service_arbitrage_at_one_bookmaker_is_never_shown() -> None:
    rows = ArbRows()
    same = bet("a", leg("DraftKings", "over", 1.72), leg("DraftKings", "under", 2.39))
    rows.set_service([same], now=100.0)
    assert rows.rows == {}
    real = bet("b", leg("DraftKings", "over", 1.72), leg("Bet365", "under", 2.39))
    rows.set_service([real], now=101.0)
    assert [sorted(part.bookmaker for part in row.legs) for row in rows.rows.values()] == [
        ["Bet365", "DraftKings"]
    ]


def test_a_stale_leg_or_one_quoted_before_a_goal_is_suspect() -> None:
    assert suspicion(2.0, [1000.0, 1050.0], None, 15.0, oldest=60.0, stale_after=90.0) == ""
    stale = suspicion(2.0, [1000.0], None, 15.0, oldest=120.0, stale_after=90.0)
    assert "stale" in stale
    before_goal = suspicion(2.0, [1000.0, 1050.0], 1010.0, 15.0, oldest=5.0, stale_after=90.0)
    assert "before the last score" in before_goal
    assert "profit" in suspicion(26.0, [1000.0], None, 15.0, oldest=1.0, stale_after=90.0)


def test_the_stale_limits_come_from_the_settings() -> None:
    settings = Settings(stale_live=45.0, stale_prematch=600.0)
    assert stale_after(settings, live=True) == 45.0
    assert stale_after(settings, live=False) == 600.0


def test_ages_count_on_the_services_clock_not_the_wall() -> None:
    class Book:
        service_clock = ServiceClock()

    book = Book()
    # Before any feed message the wall clock stands in.
    assert service_time(book, clock_now=5.0, wall_now=1_700_000_000.0) == 1_700_000_000.0
    # A service 31 minutes behind the wall: its stamps say so, and ages follow its clock.
    behind = 1_700_000_000.0 - 31 * 60
    book.service_clock.observe(behind, 5.0)
    now = service_time(book, clock_now=7.0, wall_now=1_700_000_002.0)
    assert abs(now - (behind + 2.0)) < 0.01
    quoted = behind - 10.0
    assert abs((now - quoted) - 12.0) < 0.01  # 12 s old, not 31 minutes


def test_an_in_play_edge_with_a_leg_older_than_a_sixth_of_the_stale_age_is_suspect() -> None:
    # stale_live 90 s: in play a leg older than 15 s is a book that has not moved yet.
    assert suspicion(6.0, [1000.0], None, 15.0, oldest=14.0, stale_after=90.0, live=True) == ""
    why = suspicion(6.0, [1000.0], None, 15.0, oldest=20.0, stale_after=90.0, live=True)
    assert why == "in play, a leg is older than 15s"
    # Before kick-off the same age is nothing.
    assert suspicion(6.0, [1000.0], None, 15.0, oldest=20.0, stale_after=1800.0) == ""


def test_every_export_says_which_rows_are_suspect_and_why() -> None:
    from oddstui.tui.boards.arbitrage.arb_export import arb_records

    rows = ArbRows()
    rows.set_service(
        [bet("a", leg("DraftKings", "over", 2.2), leg("Bet365", "under", 2.2))], now=100.0
    )
    (row,) = rows.rows.values()
    clean, marked = arb_records([(row, ""), (row, "profit above 15%")], {}, 100.0)
    assert (clean["suspect"], clean["suspectReason"]) == (False, "")
    assert (marked["suspect"], marked["suspectReason"]) == (True, "profit above 15%")

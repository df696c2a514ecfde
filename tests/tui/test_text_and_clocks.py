"""Plain network text and locally ticking clocks: pure functions."""

from __future__ import annotations

from rich.text import Text

from oddstui.tui.desk.clocks import ClockReading, estimate_rate
from oddstui.tui.text import clean, fit, plain


def test_markup_is_kept_literally() -> None:
    shown = plain("[bold]Arsenal[/bold] & [red]Co")
    assert shown.plain == "[bold]Arsenal[/bold] & [red]Co"
    assert shown.spans == []


def test_escape_sequences_and_controls_are_removed() -> None:
    assert clean("Real\x1b[31m Madrid\x07\x9b2J") == "Real[31m Madrid2J"
    assert clean("a\tb\nc\rd") == "a b c d"
    assert clean("bidi\u202eevil") == "bidievil"


def test_non_ascii_names_survive() -> None:
    assert clean("Atlético · Bodø/Glimt · Škoda") == "Atlético · Bodø/Glimt · Škoda"


def test_fit_cuts_with_an_ellipsis() -> None:
    assert fit("Borussia Mönchengladbach", 10) == "Borussia …"
    assert fit("Inter", 10) == "Inter"


def test_plain_returns_text_for_none() -> None:
    assert plain(None) == Text("")


def reading(played: int, running: bool, arrived: float) -> ClockReading:
    return ClockReading(
        minute=played // 60,
        played_seconds=played,
        period=1,
        running=running,
        status_detail="1st half",
        injury_time=0,
        arrived_at=arrived,
    )


def test_running_clock_advances_from_its_arrival() -> None:
    clock = reading(600, True, arrived=1000.0)
    assert clock.show(1000.0) == "10:00"
    assert clock.show(1065.4) == "11:05"


def test_stopped_clock_stays() -> None:
    clock = reading(2700, False, arrived=1000.0)
    assert clock.show(5000.0) == "45:00"


def test_clock_never_runs_backwards_before_arrival() -> None:
    clock = reading(60, True, arrived=1000.0)
    assert clock.show(990.0) == "01:00"


def test_rate_scales_simulated_time() -> None:
    assert reading(0, True, arrived=0.0).played_at(10.0, rate=60.0) == 600


def test_rate_is_estimated_from_two_readings() -> None:
    def at(played: int, arrived: float) -> ClockReading:
        return reading(played, True, arrived)

    # A service at 60x: 20 local seconds, 1200 seconds of play.
    assert estimate_rate([(at(600, 0.0), at(1800, 20.0))]) == 60.0
    # Real time, with whole-second rounding: snapped to exactly 1.
    assert estimate_rate([(at(600, 0.0), at(621, 20.0))]) == 1.0
    # A stopped clock or a new period tells nothing.
    assert estimate_rate([(reading(600, False, 0.0), at(900, 20.0))]) is None


def test_a_refetched_clock_behind_the_shown_one_holds_until_the_wire_catches_up() -> None:
    from oddstui.tui.desk.state import Board, EventView

    board = Board()

    def event(played: int, arrived: float, period: int = 1) -> EventView:
        clock = ClockReading(played // 60, played, period, True, "1st quarter", 0, arrived)
        return EventView(1, "basketball", "Basketball", "nba", "NBA", "A", "B", None, "live",
                         clock=clock)

    board.put_event(event(100, arrived=0.0))
    shown = board.events[1].clock
    assert shown is not None and shown.played_at(10.0) == 110
    board.put_event(event(106, arrived=10.0))  # the wire ran slower than the desk's tick
    held = board.events[1].clock
    assert held is not None
    assert [held.played_at(t) for t in (10.0, 12.0, 14.0, 15.0)] == [110, 110, 110, 111]
    board.put_event(event(5, arrived=20.0, period=2))  # a new period starts from the wire
    assert board.events[1].clock is not None and board.events[1].clock.played_at(20.0) == 5

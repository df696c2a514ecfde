"""The board the screens read: change tracking, live membership, stale scores."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from oddstui.tui.desk.state import Board, EventView, SportView
from oddstui.tui.event.scoreboard import teams_text
from oddstui.tui.kit.event_fields import periods_text, score_text, score_with_cards


def event(event_id: int, status: str = "live", sport: str = "football") -> EventView:
    return EventView(
        id=event_id,
        sport_slug=sport,
        sport_name=sport.title(),
        league_slug="l",
        league_name="League",
        home="Home",
        away="Away",
        start=datetime(2026, 11, 21, 13, tzinfo=UTC),
        status=status,
        score_home=0,
        score_away=0,
    )


def test_changes_are_taken_once() -> None:
    board = Board()
    board.put_event(event(1))
    assert board.take_changes() == (frozenset({1}), False)
    assert board.take_changes() == (frozenset(), False)


def test_unchanged_event_is_not_dirty() -> None:
    board = Board()
    board.put_event(event(1))
    board.take_changes()
    board.put_event(event(1))
    assert board.take_changes()[0] == frozenset()


def test_score_marks_only_that_event() -> None:
    board = Board()
    board.set_live([event(1), event(2)])
    board.take_changes()
    board.set_score(2, 1, 0, {"p1": (1, 0)})
    assert board.take_changes() == (frozenset({2}), False)
    assert board.events[2].score_home == 1


def test_live_counts_per_sport() -> None:
    board = Board()
    board.set_sports([SportView("football", "Football"), SportView("tennis", "Tennis")])
    board.set_live([event(1), event(2), event(3, sport="tennis")])
    assert board.sports["football"].live == 2
    assert board.sports["tennis"].live == 1
    board.set_status(3, "settled")
    assert board.sports["tennis"].live == 0
    assert 3 not in board.live_ids


def test_settled_event_loses_its_clock_and_live_row() -> None:
    board = Board()
    board.set_live([event(1)])
    board.set_status(1, "settled")
    assert [e.id for e in board.live_events()] == []
    assert board.events[1].clock is None


def test_reconnect_marks_live_scores_stale_until_a_fresh_one() -> None:
    board = Board()
    board.set_live([event(1)])
    board.mark_scores_stale()
    assert score_text(board.events[1]).plain == "0-0?"
    board.set_score(1, 1, 0, {})
    assert score_text(board.events[1]).plain == "1-0"


def test_a_red_card_marks_the_match_changed_and_shows_beside_its_side() -> None:
    board = Board()
    board.set_live([event(1)])
    board.set_score(1, 1, 0, {}, (0, 0))
    board.match_changed.clear()
    view = board.events[1]
    assert score_with_cards(view).plain == "1-0"
    board.set_score(1, 1, 0, {}, (0, 1))
    assert 1 in board.match_changed  # prices quoted before the card are from another match
    assert score_with_cards(view).plain == "1-0■"
    assert teams_text(view, True).plain == f"{view.home}   1-0   ■ {view.away}"
    board.set_score(1, 1, 0, {}, (3, 1))
    assert teams_text(view, True).plain == f"{view.home} ■×3   1-0   ■ {view.away}"
    assert score_with_cards(view).plain == "■■■1-0■"
    cell = score_with_cards(view)
    marks = [span for span in cell.spans if "■" in cell.plain[span.start : span.end]]
    assert len(marks) == 2 and all("red" in str(span.style) for span in marks)
    board.mark_scores_stale()  # a score that may not be current stands alone, marked
    assert score_with_cards(board.events[1]).plain == "1-0?"


def test_untrusted_feed_marks_scores() -> None:
    board = Board()
    board.set_live([event(1)])
    assert score_text(board.events[1], feed_trusted=False).plain == "0-0?"


def test_periods_in_play_order_each_its_own_score() -> None:
    view = event(1)
    view.periods = {"ft": (2, 1), "p2": (1, 1), "p1": (1, 0)}
    assert periods_text(view).plain == "1-0 1-1"
    # Ice hockey level after three periods: the wire's ot is the total with overtime (v3).
    view.periods = {"p1": (0, 0), "p2": (1, 1), "p3": (1, 1), "ft": (2, 2), "ot": (3, 2)}
    assert periods_text(view).plain == "0-0 1-1 1-1 ot 1-0"
    view.periods = {"p1": (1, 0), "p2": (0, 1), "ft": (1, 1), "ot": (1, 1), "ap": (4, 3)}
    assert periods_text(view).plain == "1-0 0-1 ot 0-0 pen 4-3"
    view.periods = {"p1": (6, 4), "currentgame": (30, 15)}
    assert periods_text(view).plain == "6-4 (30-15)"


def test_live_listings_teach_the_board_the_clock_rate() -> None:
    from oddstui.tui.desk.clocks import ClockReading

    def live(played: int, arrived: float) -> EventView:
        view = event(1)
        view.clock = ClockReading(played // 60, played, 1, True, "1st half", 0, arrived)
        return view

    board = Board()
    board.set_live([live(600, 100.0)])
    board.set_live([live(1800, 120.0)])
    assert board.clock_rate == 60.0
    clock = board.events[1].clock
    assert clock is not None and clock.show(121.0) == "31:00"


def test_with_a_book_a_rest_answer_leaves_a_known_events_score_and_status_alone() -> None:
    board = Board(scores_from_book=True)
    board.put_event(event(1))
    board.set_score(1, 1, 3, {})  # from the book
    answer = event(1, status="settled")
    answer.score_home, answer.score_away = 2, 2
    board.put_event(answer)
    shown = board.events[1]
    assert (shown.score_home, shown.score_away, shown.status) == (1, 3, "live")
    board.set_status(1, "settled")  # the book folded in
    assert board.events[1].status == "settled"


def test_without_a_feed_the_rest_answer_is_taken() -> None:
    board = Board()
    board.put_event(event(1))
    answer = event(1, status="settled")
    answer.score_home, answer.score_away = 2, 3
    board.put_event(answer)
    assert (board.events[1].score_home, board.events[1].status) == (2, "settled")


def test_the_last_score_or_status_change_is_remembered_in_unix_time() -> None:
    board = Board()
    board.put_event(event(1))
    board.put_event(event(2))
    assert board.match_changed == {}, "a first sight is no change"
    before = time.time()
    board.set_score(1, 0, 0, {"p1": (0, 0)})
    assert 1 not in board.match_changed, "periods alone are no score change"
    board.set_score(1, 1, 0, {"p1": (1, 0)})
    assert before <= board.match_changed[1] <= time.time()
    board.set_status(2, "settled")
    assert 2 in board.match_changed
    stamp = board.match_changed[2]
    board.set_status(2, "settled")
    assert board.match_changed[2] == stamp
    listed = event(3)
    board.put_event(listed)
    board.put_event(event(3, status="settled"))
    assert 3 in board.match_changed, "a change seen in a REST answer counts too"

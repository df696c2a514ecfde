"""Clocks the feed carries (the built-in service's addition) and clocks the desk only estimates."""

from __future__ import annotations

import dataclasses
import json

from oddstui.api.messages import ScoreMessage, StatusMessage, parse_frame
from oddstui.tui.desk.clocks import ClockReading
from oddstui.tui.desk.state import Board
from oddstui.tui.kit.event_fields import ESTIMATED, clock_text
from tests.tui.desk.test_board import event

CLOCK = {"minute": 20, "playedSeconds": 1200, "period": 2, "running": False,
         "statusDetail": "2nd quarter", "injuryTime": 0}  # fmt: skip


def reading(played: int, running: bool, arrived: float, period: int = 2) -> ClockReading:
    return ClockReading(20, played, period, running, "2nd quarter", 0, arrived)


def test_a_score_or_status_message_carries_the_clock() -> None:
    score = {"type": "score", "id": 7, "scores": {"home": 1, "away": 0}, "clock": CLOCK}
    status = {**score, "type": "status", "status": "live"}
    messages, bad = parse_frame(json.dumps(score) + "\n" + json.dumps(status))
    assert bad == 0
    assert isinstance(messages[0], ScoreMessage) and isinstance(messages[1], StatusMessage)
    for message in messages:
        assert message.clock is not None
        assert (message.clock.played_seconds, message.clock.running) == (1200, False)


def test_a_clock_that_does_not_fit_is_ignored_and_the_scores_kept() -> None:
    score = {"type": "score", "id": 7, "scores": {"home": 2, "away": 0}, "clock": {"running": 3}}
    (message,), bad = parse_frame(json.dumps(score))
    assert bad == 0 and isinstance(message, ScoreMessage)
    assert message.clock is None and message.scores.home == 2


def test_the_feeds_clock_wins_over_a_listing_until_a_reconnect() -> None:
    board = Board()
    board.set_live(
        [dataclasses.replace(event(1, sport="basketball"), clock=reading(1100, True, 0))]
    )
    board.set_feed_clock(1, reading(1200, False, 100))  # stopped at 1200
    assert board.feed_clocks
    # A listing answered after, but read before the stop, still running: the feed's stands.
    board.set_live(
        [dataclasses.replace(event(1, sport="basketball"), clock=reading(1195, True, 101))]
    )
    shown = board.events[1].clock
    assert shown is not None and not shown.running and shown.played_at(130) == 1200
    # After a reconnect no clock the feed carried is current: the next listing's is taken.
    board.mark_scores_stale()
    board.set_live(
        [dataclasses.replace(event(1, sport="basketball"), clock=reading(1210, True, 140))]
    )
    shown = board.events[1].clock
    assert shown is not None and shown.running and shown.played_at(142) == 1212


def test_a_stop_clock_the_service_does_not_tell_is_marked_estimated() -> None:
    board = Board()
    basketball = dataclasses.replace(event(1, sport="basketball"), clock=reading(1100, True, 0))
    football = dataclasses.replace(event(2), clock=reading(1100, True, 0, period=1))
    board.set_live([basketball, football])
    assert board.estimating_clocks()
    assert str(clock_text(board.events[1], 5)).endswith(ESTIMATED)
    assert not str(clock_text(board.events[2], 5)).endswith(ESTIMATED)  # football's never stops
    # Once the service is seen to tell stops on the feed, no clock is an estimate.
    board.set_feed_clock(1, reading(1105, True, 5))
    assert not board.estimating_clocks()
    assert not str(clock_text(board.events[1], 6)).endswith(ESTIMATED)
    assert str(clock_text(board.events[1], 6)) == "Q2 5:34"  # 1106 s played: 386 of Q2

"""A clock the feed carries is anchored when its message was sent (its stamp, through the
service clock learnt from the feed), not when a busy reader took the message up."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from oddstui.book.oddsbook import OddsBook
from tests.book.wire import message

T0 = datetime(2026, 11, 21, 10, 0, 0, tzinfo=UTC).timestamp()
LOCAL0 = 1000.0  # the local monotonic clock when the service's read T0
DELAY = 0.01  # the feed's usual delay
CLOCK = {"minute": 3, "playedSeconds": 150, "period": 1, "running": True}


def score(event_id: int, sent: float, received: float, clock: dict[str, Any] | None = None) -> Any:
    stamp = datetime.fromtimestamp(T0 + sent, UTC).isoformat(timespec="milliseconds")
    raw: dict[str, Any] = {
        "type": "score",
        "id": event_id,
        "timestamp": stamp.replace("+00:00", "Z"),
        "scores": {"home": 0, "away": 0},
    }
    if clock is not None:
        raw["clock"] = clock
    return message(raw, LOCAL0 + received)


def on_time_feed(book: OddsBook, seconds: float = 3.0) -> None:
    """Messages of another match, every 0.06 s, each DELAY after it was sent."""
    steps = int(seconds / 0.06)
    for step in range(steps):
        sent = step * 0.06
        book.apply(score(8, sent, sent + DELAY))


@pytest.mark.parametrize("late", [0.0, 0.5, 1.5])
def test_a_clock_taken_up_late_is_anchored_when_it_was_sent(late: float) -> None:
    book = OddsBook()
    on_time_feed(book)
    book.apply(score(7, 3.0, 3.0 + DELAY + late, CLOCK))
    state = book.event(7)
    assert state is not None and state.clock is not None and state.clock.played_seconds == 150
    assert state.clock_received == pytest.approx(LOCAL0 + 3.0 + DELAY, abs=0.02)


def test_before_the_service_clock_is_known_a_clock_is_anchored_at_its_receive() -> None:
    book = OddsBook()
    book.apply(score(7, 0.0, 1.5, CLOCK))
    state = book.event(7)
    assert state is not None and state.clock_received == LOCAL0 + 1.5

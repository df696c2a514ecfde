"""Whole matches on the scores and status channels, at 3600x speed over real sockets.

One test follows every event from the moment the feed opens until it has seen, from kickoff
to result, a match decided in overtime and one decided on penalties. It checks the seed's
rules on everything it saw: one status message per transition, a score message per change,
the status message carrying the scores, and the top-level totals of overtime and shoot-outs.
"""

from __future__ import annotations

import time
from typing import Any

from tests.service.conftest import Service
from tests.service.helpers import check_scores
from tests.service.test_feed_support import open_feed, rest_json

SERVICE_OPTIONS = {"speed": 3600, "updates_per_second": 50, "seed": 1}
NEXT = {"pending": {"live", "cancelled"}, "live": {"settled", "cancelled"}}
Message = dict[str, Any]


def decided_in_overtime(scores: Message) -> bool:
    return "ot" in scores["periods"] and "ap" not in scores["periods"]


def decided_on_penalties(scores: Message) -> bool:
    return "ap" in scores["periods"]


def totals(scores: Message, key: str) -> tuple[int, int]:
    period = scores["periods"][key]
    return period["home"], period["away"]


class Matches:
    """Every score and status message, by event."""

    def __init__(self) -> None:
        self.by_event: dict[int, list[Message]] = {}

    def add(self, message: Message) -> None:
        self.by_event.setdefault(message["id"], []).append(message)

    def whole(self, decided: Any) -> list[int]:
        """Events seen from kickoff to a result that `decided` accepts."""
        found = []
        for event_id, messages in self.by_event.items():
            statuses = [m for m in messages if m["type"] == "status"]
            if (
                len(statuses) >= 2
                and statuses[0]["status"] in ("pending", "live")
                and statuses[-1]["status"] == "settled"
                and any(m["status"] == "live" for m in statuses)
                and decided(statuses[-1]["scores"])
            ):
                found.append(event_id)
        return found


async def test_whole_matches_to_overtime_and_penalties(service: Service) -> None:
    matches = Matches()
    feed = await open_feed(service, channels="scores,status")
    async with feed.socket:
        # A bound, not a figure: 240 s is ten days of the world, which kicks off beach soccer
        # (always to extra time and penalties on a draw) and cup ties every day.
        deadline = time.monotonic() + 240.0
        while not (matches.whole(decided_in_overtime) and matches.whole(decided_on_penalties)):
            assert time.monotonic() < deadline, "no overtime and penalty matches in ten world days"
            matches.add(await feed.next(timeout=30.0))

    for messages in matches.by_event.values():
        check_one_status_per_transition(messages)
        check_score_messages(messages)

    overtime = matches.whole(decided_in_overtime)[0]
    final = matches.by_event[overtime][-1]["scores"]
    assert (final["home"], final["away"]) == totals(final, "ot")
    assert totals(final, "ft")[0] == totals(final, "ft")[1], "overtime follows a draw"

    penalties = matches.whole(decided_on_penalties)[0]
    final = matches.by_event[penalties][-1]["scores"]
    assert (final["home"], final["away"]) == totals(final, "ft")
    shootout = totals(final, "ap")
    assert shootout[0] != shootout[1], "a shoot-out has a winner"

    for event_id in (overtime, penalties):
        event = rest_json(service, f"/events/{event_id}")
        assert event["status"] == "settled"
        assert event["scores"] == matches.by_event[event_id][-1]["scores"]


def check_one_status_per_transition(messages: list[Message]) -> None:
    statuses = [m["status"] for m in messages if m["type"] == "status"]
    assert len(statuses) == len(set(statuses)), [(m["status"], m["timestamp"]) for m in messages]
    for before, after in zip(statuses, statuses[1:], strict=False):
        assert after in NEXT.get(before, set()), statuses


def check_score_messages(messages: list[Message]) -> None:
    """Score messages come only while live, each one a change (of the scores, or of the clock
    standing or running: ours); status carries the scores."""
    status = None
    scores = None
    turn = None
    for message in messages:
        check_scores(message["scores"])
        if message["type"] == "status":
            status = message["status"]
            if status == "settled" and scores is not None:
                assert message["scores"] == scores, "the result is the last score"
            if status == "pending":
                assert message["scores"]["home"] == message["scores"]["away"] == 0
        else:
            assert message["type"] == "score" and "status" not in message
            assert status in (None, "live"), f"a score message after {status}"
            clock = message.get("clock")
            now = None if clock is None else (clock["running"], clock["period"])
            assert (message["scores"], now) != (scores, turn), "every score message is a change"
            scores, turn = message["scores"], now

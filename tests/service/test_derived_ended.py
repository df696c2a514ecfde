"""A finished match leaves the service's derived lists at its status change: once the feed says
an event is settled or cancelled, no later GET /arbitrage-bets, /value-bets or /dropping-odds
lists it. At 600x speed a match is played in seconds of real time."""

from __future__ import annotations

import time

import pytest

from tests.service.conftest import Service
from tests.service.test_feed_support import open_feed, rest_json

SERVICE_OPTIONS = {"speed": 600, "updates_per_second": 800}
ENDED = ("settled", "cancelled")
VALUE_BOOKS = 6  # bookmakers asked for value bets each round


def listed_events(service: Service, books: list[str]) -> dict[str, set[int]]:
    """The events on each derived list now."""
    arbs = rest_json(service, "/arbitrage-bets", bookmakers=",".join(books), limit=500)
    values = [
        item
        for book in books[:VALUE_BOOKS]
        for item in rest_json(service, "/value-bets", bookmaker=book)
    ]
    drops = rest_json(service, "/dropping-odds", limit=100)
    return {
        "arbitrage": {item["eventId"] for item in arbs},
        "value": {item["eventId"] for item in values},
        "dropping": {item["eventId"] for item in drops},
    }


@pytest.mark.slow
async def test_a_finished_match_leaves_every_derived_list(service: Service) -> None:
    books = [b["name"] for b in rest_json(service, "/bookmakers") if b["active"]]
    books = [name for name in books if name not in ("Pinnacle", "SingBet")][:60]
    feed = await open_feed(service, channels="status")
    ended: set[int] = set()
    seen_listed: set[int] = set()
    proven: set[int] = set()  # listed, then ended, then checked off every list
    rounds = 0
    async with feed.socket:
        deadline = time.monotonic() + 150.0
        while len(proven) < 2:
            assert time.monotonic() < deadline, (
                f"no listed match ended in time ({len(ended)} ended, {len(seen_listed)} listed)"
            )
            for message in await feed.collect(0.3):
                if message.get("type") == "status" and message.get("status") in ENDED:
                    ended.add(int(message["id"]))
            known_ended = set(ended)  # every one ended before the lists below were asked
            lists = listed_events(service, books)
            rounds += 1
            # non-empty: the three lists, by name
            for name, ids in lists.items():
                assert not ids & known_ended, f"{name} lists ended events {ids & known_ended}"
            proven |= seen_listed & known_ended
            for ids in lists.values():
                seen_listed |= ids
    assert rounds >= 2 and proven

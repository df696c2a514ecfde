"""A client keeping a local copy from a REST snapshot plus the feed ends up with what REST says.

The client takes GET /odds/multi with includeSeq, applies every odds message, drops the
connection, comes back with lastSeq, applies the replay and live messages, and finally compares
its copy with a second GET /odds/multi, cut at that response's X-Service-Seq.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from tests.service.conftest import PAID_SELECTION, Service
from tests.service.test_feed_support import Feed, odds_only, open_feed, rest, rest_json

SERVICE_OPTIONS = {"speed": 5, "updates_per_second": 800}
MARKETS = ("ML", "Spread", "Totals", "ML HT", "Totals HT", "Double Chance")
FOLDED = {name.casefold() for name in MARKETS}
Pair = tuple[int, str]


def filtered(markets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [market for market in markets if market["name"].casefold() in FOLDED]


def snapshot(service: Service, event_ids: list[int]) -> tuple[int, dict[Pair, list[Any]], set[int]]:
    """(X-Service-Seq, the filtered markets per pair, the ids of events that have ended)."""
    response = rest(
        service,
        "/odds/multi",
        eventIds=",".join(map(str, event_ids)),
        bookmakers=",".join(PAID_SELECTION),
        includeSeq="true",
    )
    assert response.status_code == 200, response.text[:300]
    copy: dict[Pair, list[Any]] = {}
    ended = set()
    for record in response.json():
        if record["status"] in ("settled", "cancelled"):
            ended.add(record["id"])
        for bookie, markets in record["bookmakers"].items():
            copy[(record["id"], bookie)] = filtered(markets)
    return int(response.headers["X-Service-Seq"]), copy, ended


class LocalCopy:
    def __init__(self, copy: dict[Pair, list[Any]]) -> None:
        self.copy = copy
        self.last_seq = 0
        self.applied = 0

    def apply(self, message: dict[str, Any]) -> None:
        assert message["seq"] > self.last_seq, "odds messages come in seq order"
        self.last_seq = message["seq"]
        self.applied += 1
        pair = (message["id"], message["bookie"])
        if message["type"] in ("created", "updated"):
            self.copy[pair] = message["markets"]  # the service sends complete lists
        else:
            self.copy[pair] = []

    async def follow(
        self, feed: Feed, done: Callable[[list[dict[str, Any]]], bool], up_to: int | None = None
    ) -> None:
        """Apply the odds messages that arrive until `done(every message so far)`."""
        for message in odds_only(await feed.collect_until(done, timeout=60)):
            if up_to is None or message["seq"] <= up_to:
                self.apply(message)

    def non_empty(self) -> dict[Pair, list[Any]]:
        return {pair: markets for pair, markets in self.copy.items() if markets}


async def test_snapshot_plus_feed_plus_replay_equals_rest(service: Service) -> None:
    live = rest_json(service, "/events/live")
    event_ids = sorted(event["id"] for event in live[-10:])  # the latest kickoffs
    first_seq, copy, ended_first = snapshot(service, event_ids)
    # A match that ended between the two requests had its `deleted` before this cut: REST keeps
    # its closing prices, and the feed has nothing more to say of it.
    local = LocalCopy({pair: m for pair, m in copy.items() if pair[0] not in ended_first})
    local.last_seq = first_seq
    params = {"markets": ",".join(MARKETS), "eventIds": ",".join(map(str, event_ids))}

    feed = await open_feed(service, lastSeq=first_seq, **params)
    async with feed.socket:
        await local.follow(feed, lambda got: len(odds_only(got)) >= 5)  # prices of live events move
    applied_before = local.applied
    assert applied_before >= 5

    # Changes pile up while the client is away: the service's seq moves well past the cursor.
    away_from = local.last_seq
    for _ in range(600):
        if snapshot(service, event_ids)[0] > away_from + 500:
            break
        await asyncio.sleep(0.1)
    else:
        raise AssertionError("the service's seq did not move on within a minute")
    feed = await open_feed(service, lastSeq=local.last_seq, **params)
    async with feed.socket:
        await local.follow(feed, lambda got: len(odds_only(got)) >= 1)  # the replay begins
        cut, expected, ended = snapshot(service, event_ids)
        # Everything up to the cut has arrived once a message past it has (the feed is in
        # seq order).
        await local.follow(feed, lambda got: any(m["seq"] > cut for m in odds_only(got)), up_to=cut)
    assert local.applied > applied_before, "the replay and live stream brought changes"

    # Events that ended in the meantime are left out of the comparison (an ending's `deleted`
    # for every bookmaker is pinned by test_world_evolution's cancelled-event test).
    running = {pair: m for pair, m in local.non_empty().items() if pair[0] not in ended}
    assert running == {pair: m for pair, m in expected.items() if m and pair[0] not in ended}
    assert running, "some events are still running"

"""Sequence numbers, compacted replay, resync_required and the REST-to-feed handoff.

A watcher on a second key with the same bookmaker selection and filters stays connected
throughout and records the full stream; what a resuming client receives is compared with it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from tests.service.conftest import PAID_SELECTION, Service
from tests.service.test_feed_support import (
    MARKETS,
    Feed,
    has_odds,
    odds_only,
    open_feed,
    rest,
    rest_json,
    select_bookmakers,
)

SERVICE_OPTIONS = {"speed": 10, "updates_per_second": 500}
Message = dict[str, Any]


def compacted(messages: list[Message]) -> list[Message]:
    """The latest message per (event, bookie), in seq order: what a replay must be."""
    latest: dict[tuple[int, str], Message] = {}
    for message in messages:
        latest[(message["id"], message["bookie"])] = message
    return sorted(latest.values(), key=lambda m: m["seq"])


def some_pair_changed_twice_after(seq: int) -> Callable[[list[Message]], bool]:
    def done(messages: list[Message]) -> bool:
        gap = [m for m in odds_only(messages) if m["seq"] > seq]
        return len(gap) >= 20 and len(compacted(gap)) < len(gap)

    return done


async def watcher(service: Service) -> Feed:
    select_bookmakers(service, list(PAID_SELECTION), key=service.keys.default)
    return await open_feed(service, service.keys.default, markets=MARKETS)


async def resume_and_compare(service: Service, last_seq_now: Callable[[], Any]) -> None:
    """Watch the stream, take `lastSeq` from `last_seq_now()`, let changes pile up, resume."""
    watching = await watcher(service)
    async with watching.socket:
        last_seq = await last_seq_now()
        seen = odds_only(await watching.collect_until(some_pair_changed_twice_after(last_seq)))
        resumed = await open_feed(service, markets=MARKETS, lastSeq=last_seq)
        async with resumed.socket:
            resumed_at = resumed.welcome["seq"]
            received = odds_only(
                await resumed.collect_until(
                    lambda ms: len([m for m in odds_only(ms) if m["seq"] > resumed_at]) >= 5
                )
            )
        seen += odds_only(await watching.collect(0.5))

    gap = [m for m in seen if last_seq < m["seq"] <= resumed_at]
    replay = [m for m in received if m["seq"] <= resumed_at]
    assert gap, "prices changed while the client was away"
    assert replay == compacted(gap)
    assert len(replay) < len(gap), "some pair changed twice, so the replay is shorter"

    live = [m for m in received if m["seq"] > resumed_at]
    assert live, "live messages follow the replay"
    end = min(live[-1]["seq"], seen[-1]["seq"])
    assert [m for m in live if m["seq"] <= end] == [m for m in seen if resumed_at < m["seq"] <= end]


async def test_seq_is_global_and_strictly_increasing(service: Service) -> None:
    feed = await open_feed(service, markets=MARKETS, channels="odds,scores,status")
    async with feed.socket:
        messages = await feed.collect_until(has_odds(30))
    seqs = [m["seq"] for m in odds_only(messages)]
    assert len(seqs) > 20
    assert all(a < b for a, b in zip(seqs, seqs[1:], strict=False))
    assert seqs[0] > feed.welcome["seq"]
    # non-empty: seqs, taken from these messages, has more than 20
    assert all("seq" not in m for m in messages if m["type"] in ("score", "status"))


async def test_reconnecting_with_last_seq_replays_compacted_then_streams_live(
    service: Service,
) -> None:
    async def seq_of_a_previous_connection() -> int:
        earlier = await open_feed(service, markets=MARKETS)
        await earlier.socket.close()
        return int(earlier.welcome["seq"])

    await resume_and_compare(service, seq_of_a_previous_connection)


async def test_rest_snapshot_seq_hands_off_to_the_feed_without_loss(service: Service) -> None:
    event_ids = ",".join(str(e["id"]) for e in rest_json(service, "/events/live")[:10])

    async def seq_of_a_rest_snapshot() -> int:
        response = rest(
            service,
            "/odds/multi",
            eventIds=event_ids,
            bookmakers=",".join(PAID_SELECTION),
            includeSeq="true",
        )
        assert response.status_code == 200
        return int(response.headers["X-Service-Seq"])

    await resume_and_compare(service, seq_of_a_rest_snapshot)


async def test_last_seq_ahead_of_the_service_gets_resync_then_live(service: Service) -> None:
    probe = await open_feed(service, markets=MARKETS)
    await probe.socket.close()
    feed = await open_feed(service, markets=MARKETS, lastSeq=probe.welcome["seq"] + 1_000_000)
    async with feed.socket:
        resync = await feed.next()
        assert resync == {
            "type": "resync_required",
            "reason": "lastSeq ahead of current seq",
            "seq": feed.welcome["seq"],
        }
        live = odds_only(await feed.collect_until(has_odds(3)))
    # non-empty: has_odds(3) waited for three odds messages
    assert all(m["seq"] > feed.welcome["seq"] for m in live)


async def test_last_seq_older_than_the_window_gets_resync_then_live(
    service_factory: Callable[..., Service],
) -> None:
    short = service_factory(speed=10, updates_per_second=500, replay_window=1)
    first = await open_feed(short, markets=MARKETS)
    await first.socket.close()
    recent = await open_feed(short, markets=MARKETS, lastSeq=first.welcome["seq"])
    async with recent.socket:
        assert (await recent.next())["type"] != "resync_required"

    await asyncio.sleep(2.5)  # the window is one second of real time
    feed = await open_feed(short, markets=MARKETS, lastSeq=first.welcome["seq"])
    async with feed.socket:
        resync = await feed.next()
        assert resync == {
            "type": "resync_required",
            "reason": "lastSeq too old",
            "seq": feed.welcome["seq"],
        }
        live = odds_only(await feed.collect_until(has_odds(3)))
    # non-empty: has_odds(3) waited for three odds messages
    assert all(m["seq"] > feed.welcome["seq"] for m in live)

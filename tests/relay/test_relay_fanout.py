"""`oddstui relay` against the real service: ten desks behind one upstream connection.

The upstream is `oddstui serve` behind a `FaultProxy` that counts feed connections. A second
account with the same selection watches the service directly (a tap): the relay must deliver
exactly what the upstream sends on its key, in order, to every desk.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from oddstui.api.feed import FeedClient
from oddstui.api.feed_state import FeedState
from tests.api.fault_proxy import FaultProxy
from tests.api.feed_harness import RecordingBook, timings, wait_until
from tests.api.feed_service import FEED_KEY, OTHER_FEED_KEY, SERVICE_FLAGS, FeedService
from tests.relay.relaying import DESK_KEYS, launch_relay
from tests.relay.taps import Tap, latest_per_pair, tapping
from tests.serving import terminate

pytestmark = pytest.mark.timeout(120)
DESKS = 10


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    with FeedService(tmp_path_factory.mktemp("relay-up"), *SERVICE_FLAGS) as running_service:
        yield running_service


def window(seqs: list[int], reference: list[int]) -> tuple[list[int], list[int]]:
    """Both lists cut to the seqs both could have seen."""
    low, high = max(seqs[0], reference[0]), min(seqs[-1], reference[-1])
    return [s for s in seqs if low <= s <= high], [s for s in reference if low <= s <= high]


async def test_ten_desks_share_one_upstream_connection(
    service: FeedService, tmp_path: Path
) -> None:
    async with FaultProxy(service.port) as proxy:
        process, base = await asyncio.to_thread(launch_relay, proxy.base_url, FEED_KEY, tmp_path)
        try:
            async with tapping(Tap(service.base_url, OTHER_FEED_KEY)) as tap:
                books = [RecordingBook() for _ in range(DESKS)]
                clients = [
                    FeedClient(base, DESK_KEYS[n], books[n], None, timings=timings())
                    for n in range(DESKS)
                ]
                tasks = [asyncio.create_task(client.run()) for client in clients]
                try:
                    await wait_until(
                        lambda: all(c.state is FeedState.LIVE for c in clients), what="desks live"
                    )
                    await wait_until(
                        lambda: all(b.odds_applied >= 300 for b in books), 20, "traffic"
                    )
                    await wait_until(
                        lambda: tap.last_seq >= max(c.last_seq or 0 for c in clients),
                        what="the tap to catch up",
                    )
                    assert {c.status().relay for c in clients} == {"live"}
                finally:
                    for client in clients:
                        client.stop()
                    await asyncio.wait_for(asyncio.gather(*tasks), 10)
                reference = [seq for seq, _, _ in tap.odds]
                assert books
                for book in books:
                    assert book.applied_twice() == []  # in seq order, never twice
                    seqs = [m.seq for m in book.epochs[-1]]
                    delivered, expected = window(seqs, reference)
                    assert len(expected) >= 100
                    assert delivered == expected  # no gaps
                assert all(c.counters.connects == 1 for c in clients)
        finally:
            terminate(process)
        requests = proxy.feed_requests()
        assert len(requests) == 1, requests  # upstream saw exactly one feed connection
        assert "lastSeq" not in requests[0]


async def test_a_client_resuming_with_last_seq_gets_what_it_missed(
    service: FeedService, tmp_path: Path
) -> None:
    process, base = await asyncio.to_thread(launch_relay, service.base_url, FEED_KEY, tmp_path)
    try:
        async with tapping(Tap(service.base_url, OTHER_FEED_KEY)) as tap:
            async with tapping(Tap(base, DESK_KEYS[0])) as first:
                await wait_until(lambda: len(first.odds) >= 50, what="traffic")
            stopped_at = first.last_seq
            await wait_until(lambda: tap.last_seq >= stopped_at + 200, what="missed messages")
            async with tapping(Tap(base, DESK_KEYS[0], last_seq=stopped_at)) as again:
                await wait_until(lambda: again.welcome is not None, what="welcome")
                assert again.welcome is not None
                resumed_at = again.welcome["seq"]
                assert again.welcome["relay"]["upstream"] == "live"
                await wait_until(
                    lambda: sum(seq > resumed_at for seq, _, _ in again.odds) >= 100,
                    what="live after the replay",
                )
                await wait_until(lambda: tap.last_seq >= again.last_seq, what="the tap")
        replay = [seq for seq, _, _ in again.odds if seq <= resumed_at]
        missed = latest_per_pair(tap.odds, stopped_at, resumed_at)
        assert len(missed) >= 20
        assert replay == missed  # the latest of every pair that changed, in seq order
        live = [seq for seq, _, _ in again.odds if seq > resumed_at]
        expected = [seq for seq, _, _ in tap.odds if resumed_at < seq <= live[-1]]
        assert live == expected  # then the live stream, without a gap
        assert not any(m["type"] == "resync_required" for m in again.messages)
    finally:
        with contextlib.suppress(Exception):
            terminate(process)


async def test_with_deflate_a_compressing_and_a_plain_client_get_the_same_messages(
    service: FeedService, tmp_path: Path
) -> None:
    """Frames go straight to a plain client's socket and through the ASGI send to one that
    negotiated permessage-deflate: both read the same odds, whole and in order."""
    import json
    import re

    from websockets.asyncio.client import connect

    process, base = await asyncio.to_thread(
        launch_relay, service.base_url, FEED_KEY, tmp_path, "--deflate"
    )
    url = base.replace("http://", "ws://", 1) + "/ws?markets=ML,Totals&apiKey="
    try:
        async with (
            connect(url + DESK_KEYS[0], compression="deflate", proxy=None) as packed,
            connect(url + DESK_KEYS[1], compression=None, proxy=None) as plain,
        ):
            assert packed.response is not None and plain.response is not None
            assert "permessage-deflate" in packed.response.headers.get(
                "Sec-WebSocket-Extensions", ""
            )
            assert "Sec-WebSocket-Extensions" not in plain.response.headers

            async def odds_seqs(ws: object, count: int) -> list[int]:
                seqs: list[int] = []
                while len(seqs) < count:
                    frame = await asyncio.wait_for(ws.recv(), 20)  # type: ignore[attr-defined]
                    for line in str(frame).split("\n"):
                        message = json.loads(line)  # each line whole: never a cut frame
                        if re.fullmatch("created|updated|deleted|no_markets", message["type"]):
                            seqs.append(message["seq"])
                return seqs

            got = await asyncio.gather(odds_seqs(packed, 300), odds_seqs(plain, 300))
            first, second = window(*got)
            assert len(first) >= 100
            assert first == second == sorted(set(first))
    finally:
        terminate(process)

"""What a relay's clients see when its upstream has trouble: the relay's state, and
`resync_required` only when the relay itself lost continuity."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.fault_proxy import FaultProxy
from tests.api.feed_harness import wait_until
from tests.api.feed_service import FEED_KEY, SERVICE_FLAGS, FeedService
from tests.relay.relaying import DESK_KEYS, launch_relay
from tests.relay.taps import Tap, tapping
from tests.serving import terminate

pytestmark = pytest.mark.timeout(120)


@pytest.fixture()
def service(tmp_path: Path) -> Iterator[FeedService]:
    with FeedService(tmp_path, *SERVICE_FLAGS) as running_service:
        yield running_service


def kinds(tap: Tap) -> list[str]:
    return [m["type"] for m in tap.messages]


def states(tap: Tap) -> list[str]:
    return [m["upstream"] for m in tap.messages if m["type"] == "relay"]


async def test_a_cut_upstream_link_is_resumed_without_a_client_resync(
    service: FeedService, tmp_path: Path
) -> None:
    async with FaultProxy(service.port) as proxy:
        process, base = await asyncio.to_thread(launch_relay, proxy.base_url, FEED_KEY, tmp_path)
        try:
            async with tapping(Tap(base, DESK_KEYS[0])) as tap:
                await wait_until(lambda: len(tap.odds) >= 20, what="traffic")
                proxy.drop()
                await wait_until(lambda: len(proxy.feed_requests()) == 2, what="reconnect")
                settled = len(tap.odds)
                await wait_until(lambda: len(tap.odds) >= settled + 50, what="traffic again")
            assert "lastSeq=" in proxy.feed_requests()[1]  # the relay resumed by replay
            assert "resync_required" not in kinds(tap)
            assert states(tap)[-1] == "live" and "offline" in states(tap)
            seqs = [seq for seq, _, _ in tap.odds]
            assert seqs == sorted(set(seqs))
        finally:
            terminate(process)


async def test_a_restarted_upstream_makes_clients_resync_once(
    service: FeedService, tmp_path: Path
) -> None:
    process, base = await asyncio.to_thread(launch_relay, service.base_url, FEED_KEY, tmp_path)
    try:
        async with tapping(Tap(base, DESK_KEYS[0])) as tap:
            await wait_until(lambda: len(tap.odds) >= 20, what="traffic")
            await asyncio.to_thread(service.restart)  # a new world: the relay's cursor is lost
            await wait_until(lambda: "resync_required" in kinds(tap), 30, "resync_required")
            resync = next(m for m in tap.messages if m["type"] == "resync_required")
            await wait_until(lambda: tap.odds[-1][0] > resync["seq"], 30, "live after the resync")
        assert kinds(tap).count("resync_required") == 1
        assert "the relay resynced with its upstream" in resync["reason"]
    finally:
        terminate(process)

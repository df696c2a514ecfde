"""The relay applies the feed's filters as the service does: a client filtering by sport and
status behind the relay gets exactly what the same filters give on the service itself."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oddstui.api.feed_url import FeedFilters
from tests.api.feed_harness import wait_until
from tests.api.feed_service import FEED_KEY, OTHER_FEED_KEY, SERVICE_FLAGS, FeedService
from tests.relay.relaying import DESK_KEYS, launch_relay
from tests.relay.taps import Tap, tapping
from tests.serving import terminate

pytestmark = pytest.mark.timeout(120)


@pytest.fixture()
def service(tmp_path: Path) -> Iterator[FeedService]:
    with FeedService(tmp_path, *SERVICE_FLAGS) as running_service:
        yield running_service


def inside(tap: Tap, low: int, high: int) -> list[dict[str, Any]]:
    return [m for m in tap.messages if low <= m.get("seq", -1) <= high]


async def same_as_direct(service: FeedService, base: str, filters: FeedFilters) -> Tap:
    """A client behind the relay gets the same messages as one on the service, with the markets
    cut alike; returns the relayed tap."""
    direct = Tap(service.base_url, OTHER_FEED_KEY, filters=filters)
    relayed = Tap(base, DESK_KEYS[0], filters=filters)
    async with tapping(direct), tapping(relayed):
        await wait_until(lambda: len(relayed.odds) >= 100, 20, "traffic")
        await wait_until(lambda: direct.last_seq >= relayed.last_seq, what="the direct tap")
    low = max(direct.odds[0][0], relayed.odds[0][0])
    high = min(direct.odds[-1][0], relayed.odds[-1][0])
    assert len(inside(direct, low, high)) >= 50
    assert inside(relayed, low, high) == inside(direct, low, high)
    return relayed


@pytest.mark.parametrize(
    "filters",
    [
        FeedFilters(sports=("football", "tennis"), channels=("odds", "scores", "status")),
        FeedFilters(status="live", markets=("ML",)),
    ],
    ids=["sports", "live-ML"],
)
async def test_filtered_clients_get_what_the_service_gives(
    service: FeedService, tmp_path: Path, filters: FeedFilters
) -> None:
    process, base = await asyncio.to_thread(launch_relay, service.base_url, FEED_KEY, tmp_path)
    try:
        await same_as_direct(service, base, filters)
    finally:
        terminate(process)


async def test_a_relay_that_never_walks_the_catalog_still_places_every_event(
    service: FeedService, tmp_path: Path
) -> None:
    """Every event is new to it: it asks upstream where each one is and holds the fan-out until
    the answer, so a client filtering by sport misses nothing and gets it in seq order."""
    filters = FeedFilters(sports=("football", "basketball"), channels=("odds", "scores", "status"))
    process, base = await asyncio.to_thread(
        launch_relay, service.base_url, FEED_KEY, tmp_path, "--catalog-every", "0"
    )
    try:
        relayed = await same_as_direct(service, base, filters)
        seqs = [seq for seq, *_ in relayed.odds]
        assert seqs == sorted(seqs)
    finally:
        terminate(process)

"""A market the service withdraws leaves the book of a desk behind a relay, and behind
relay -> NATS -> relay across a cut of the consuming relay, as it does a direct desk's (issue 22,
part 1): the relays pass on the service's `complete_markets`."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from oddstui.api.rest import ApiClient
from oddstui.relay.nats_server import NatsServer
from tests.api.feed_harness import (
    RecordingBook,
    assert_matches_service,
    busy_events,
    feed_client,
    running,
    selected,
    streaming,
    wait_until,
)
from tests.api.feed_service import FEED_KEY, OTHER_FEED_KEY, SERVICE_FLAGS, FeedService
from tests.relay.relaying import DESK_KEYS, launch_relay
from tests.relay.test_relay_nats import relaunch
from tests.serving import terminate

pytestmark = pytest.mark.timeout(240)
DESK, BRIDGE = DESK_KEYS[0], DESK_KEYS[11]


@pytest.fixture()
def nats_url(tmp_path: Path) -> Iterator[str]:
    server = NatsServer(tmp_path / "nats")
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture()
def service(tmp_path: Path) -> Iterator[FeedService]:
    with FeedService(tmp_path, *SERVICE_FLAGS) as running_service:
        yield running_service


def withdrawals(book: RecordingBook) -> int:
    """How many applied messages left out a market the pair's previous message listed."""
    listed: dict[tuple[int, str], set[str]] = {}
    count = 0
    for epoch in book.epochs:
        for message in epoch:
            names = {market.name for market in message.markets}
            before = listed.get((message.event_id, message.bookie))
            if before is not None and message.kind in ("created", "updated") and before - names:
                count += 1
            listed[(message.event_id, message.bookie)] = names
    return count


async def check_desk(base_url: str, service: FeedService) -> tuple[RecordingBook, object]:
    """A desk behind `base_url` is told markets are complete and, once the service has withdrawn
    some market it follows, still holds exactly what the service quotes."""
    async with (
        ApiClient(service.base_url, OTHER_FEED_KEY) as direct,
        ApiClient(base_url, DESK) as through,
    ):
        ids, books = await busy_events(direct), await selected(direct)
        book = RecordingBook()
        client = feed_client(base_url, DESK, book, through, ids)
        async with running(client):
            await streaming(client)
            assert book.complete_markets is True
            await wait_until(lambda: withdrawals(book) > 0, 120, "a withdrawn market")
            await assert_matches_service(client, book, direct, ids, books)
    return book, client


async def test_a_withdrawn_market_leaves_a_desk_behind_a_relay(
    service: FeedService, tmp_path: Path
) -> None:
    relay, base = await asyncio.to_thread(launch_relay, service.base_url, FEED_KEY, tmp_path)
    try:
        await check_desk(base, service)
    finally:
        terminate(relay)


async def test_a_withdrawn_market_leaves_a_desk_behind_relay_nats_relay_after_a_cut(
    service: FeedService, nats_url: str, tmp_path: Path
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    publisher, a_base = await asyncio.to_thread(
        launch_relay, service.base_url, FEED_KEY, tmp_path / "a", "--nats", nats_url
    )
    consumer, b_base = await asyncio.to_thread(
        launch_relay, a_base, BRIDGE, tmp_path / "b", "--from-nats", nats_url
    )
    try:
        await check_desk(b_base, service)
        consumer.kill()  # the cut: a new consuming relay reads the stream from its start
        consumer.wait(10)
        port = urlsplit(b_base).port or 0
        consumer, _ = await relaunch(a_base, tmp_path / "b", nats_url, port)
        await check_desk(b_base, service)
    finally:
        terminate(consumer)
        terminate(publisher)

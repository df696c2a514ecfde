"""Two relays joined by a real NATS JetStream: one publishes its upstream feed, the other serves
a desk from the stream, and may be killed and restarted without the desk losing anything."""

from __future__ import annotations

import asyncio
import subprocess
import time
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
from tests.serving import terminate

pytestmark = pytest.mark.timeout(150)
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


async def relaunch(
    upstream: str, folder: Path, url: str, port: int
) -> tuple[subprocess.Popen[str], str]:
    deadline = time.monotonic() + 20
    while True:  # the port may take a moment to be free again
        try:
            return await asyncio.to_thread(
                launch_relay, upstream, BRIDGE, folder, "--from-nats", url, port=port
            )
        except RuntimeError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


async def test_a_desk_behind_a_consuming_relay_loses_nothing_across_its_restart(
    service: FeedService, nats_url: str, tmp_path: Path
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    publisher, a_base = await asyncio.to_thread(
        launch_relay, service.base_url, FEED_KEY, tmp_path / "a", "--nats", nats_url
    )
    # The consuming relay's REST goes through the publishing one, with one of its client keys:
    # the upstream key stays on the publisher's box.
    consumer, b_base = await asyncio.to_thread(
        launch_relay, a_base, BRIDGE, tmp_path / "b", "--from-nats", nats_url
    )
    try:
        async with (
            ApiClient(service.base_url, OTHER_FEED_KEY) as direct,
            ApiClient(b_base, DESK) as through,
        ):
            ids, books = await busy_events(direct), await selected(direct)
            book = RecordingBook()
            client = feed_client(b_base, DESK, book, through, ids)
            async with running(client):
                await streaming(client)
                await assert_matches_service(client, book, direct, ids, books)

                consumer.kill()  # no goodbye: the desk's link just breaks
                consumer.wait(10)
                await wait_until(lambda: client.counters.connects >= 2, what="reconnect tries")
                await asyncio.sleep(1.0)  # the stream goes on meanwhile
                port = urlsplit(b_base).port or 0
                consumer, _ = await relaunch(a_base, tmp_path / "b", nats_url, port)
                await wait_until(lambda: client.counters.reconnects >= 1, 20, "resumed")
                await streaming(client, 100)
                await assert_matches_service(client, book, direct, ids, books)
            assert client.counters.resyncs == 1  # the first snapshot only: resumed by replay
            assert book.installs == 1
    finally:
        terminate(consumer)
        terminate(publisher)

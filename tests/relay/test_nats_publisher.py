"""The NATS publisher on a real JetStream: every message of a burst stored once, in order, one in
`ACK_EVERY` acknowledged; a message sent again with the same seq is deduplicated by the stream."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from oddstui.relay.journal import Relayed
from oddstui.relay.nats_bus import ACK_EVERY, NatsPublisher, connect, ensure_stream
from oddstui.relay.nats_server import NatsServer
from oddstui.relay.places import EventPlaces
from tests.waiting import eventually_async

pytestmark = pytest.mark.timeout(60)


@pytest.fixture()
def nats_url(tmp_path: Path) -> Iterator[str]:
    server = NatsServer(tmp_path / "nats")
    try:
        yield server.start()
    finally:
        server.stop()


def change(seq: int) -> Relayed:
    line = f'{{"type":"updated","seq":{seq},"id":7,"bookie":"B","markets":[]}}'
    return Relayed(seq, "updated", 7, "B", line)


async def test_a_burst_is_stored_once_in_order_and_acknowledged(nats_url: str) -> None:
    nc = await connect(nats_url)
    js = nc.jetstream()
    await ensure_stream(js, "TESTS", "tests", 60.0)
    publisher = NatsPublisher(nc, "tests", EventPlaces())
    task = asyncio.create_task(publisher.run())
    try:
        for seq in range(1, 201):  # one burst: queued without a wait, as the relay does
            publisher.on_odds(change(seq))
        publisher.on_odds(change(200))  # sent twice (a publisher restarted mid-burst)
        # The 1st, 101st and 201st (the duplicate, which JetStream acks too) ask for an ack.
        asked = len(range(0, 201, ACK_EVERY))
        assert asked >= 3, "the burst must span several acks"
        await eventually_async(
            lambda: asyncio.sleep(0, publisher.acknowledged), f"{asked} acks", lambda n: n == asked
        )
        await eventually_async(
            lambda: js.stream_info("TESTS"), "200 stored", lambda i: i.state.messages == 200
        )
        info = await js.stream_info("TESTS")
        assert info.state.messages == 200, "the second seq 200 was not deduplicated"
        assert publisher.failed == 0
        assert publisher.acknowledged == asked
        stored = [
            (await js.get_msg("TESTS", seq=n)).headers["Nats-Msg-Id"] for n in (1, 100, 200)
        ]
        assert stored == ["1", "100", "200"]
    finally:
        publisher.stop()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
        await nc.close()

"""Record the real built-in service with a cut in the middle, replay it, and check the replayed
book against the service (issue 20's "Done when").

"2 minutes of the service": the service runs at --speed 10, so the ~12 wall seconds recorded are
two minutes of its clock (scores, clocks and prices move as in two minutes), while the test stays
short. The recorder runs in this process (its stop is then exact); the replay is the real
`oddstui replay` command at --speed 10, and the client is the SDK's own FeedClient and OddsBook.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import orjson
import pytest

from oddstui.api.feed_url import FeedFilters
from oddstui.api.messages import OddsMessage, parse_frame
from oddstui.api.rest import ApiClient
from oddstui.recording import FeedMessage, Gap, Snapshot, open_recording
from oddstui.recording.recorder import Recorder, RecordOptions
from tests.api.fault_proxy import FaultProxy
from tests.api.feed_harness import (
    RecordingBook,
    feed_client,
    mismatches,
    rolled_forward,
    running,
    timings,
    wait_until,
)
from tests.api.feed_service import FEED_KEY, FeedService
from tests.odds_views import book_view
from tests.serving import READY, read_ready, terminate

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]

MARKETS = FeedFilters().markets
RECORD_SECONDS = 12.0  # wall seconds; the service's --speed 10 makes them two minutes


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    flags = ("--seed", "7", "--speed", "10", "--updates-per-second", "200")
    with FeedService(tmp_path_factory.mktemp("rec-service"), *flags) as running_service:
        yield running_service


@contextlib.contextmanager
def replay(folder: Path, *flags: str) -> Iterator[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "oddstui", "replay", str(folder), "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        yield read_ready(process, READY, 60.0, "oddstui replay")
    finally:
        terminate(process)


@contextlib.asynccontextmanager
async def recording(recorder: Recorder) -> AsyncIterator[asyncio.Event]:
    stop = asyncio.Event()
    task = asyncio.create_task(recorder.run(stop))
    try:
        yield stop
    finally:
        stop.set()
        await asyncio.wait_for(task, 30.0)


async def test_replayed_book_equals_the_service_at_the_recording_end(
    service: FeedService, tmp_path: Path
) -> None:
    folder = tmp_path / "rec"
    async with FaultProxy(service.port) as proxy, ApiClient(service.base_url, FEED_KEY) as api:
        options = RecordOptions(
            out=folder,
            base_url=proxy.base_url,
            key=FEED_KEY,
            markets=MARKETS,
            # No refresh of the live list while recording: a cut during the load of a new
            # match makes the feed client start over with a full snapshot (a gap, rightly),
            # and this test is about a cut that loses nothing.
            events_every=600.0,
            timings=timings(),
        )
        recorder = Recorder(options)
        loop = asyncio.get_running_loop()
        async with recording(recorder):
            started = loop.time()
            await wait_until(
                lambda: recorder.writer is not None and recorder.writer.records > 50,
                timeout=60,
                what="the recorder's first records",
            )
            await asyncio.sleep(max(0.0, started + RECORD_SECONDS / 2 - loop.time()))
            proxy.drop()  # the cut, in the middle
            client = recorder.client
            assert client is not None
            await wait_until(lambda: client.counters.reconnects == 1, what="the reconnect")
            await asyncio.sleep(max(0.0, started + RECORD_SECONDS - loop.time()))
            # The service's snapshot at the end; the recorder runs until it has seen its seq.
            books = list((await api.selected_bookmakers()).bookmakers)
            tracked = [e.id for e in await api.live_events()][:10]
            assert tracked, "the service must have live events"
            records, seq = await api.odds_multi_with_seq(tracked, books)
            await wait_until(lambda: (client.last_seq or 0) >= seq, what=f"seq {seq}")
        first, second = proxy.feed_requests()[:2]
        assert "lastSeq=" not in first and "lastSeq=" in second  # the cut resumed

    recorded = open_recording(folder)
    assert recorded.manifest.gaps == []  # the cut lost nothing: no resync, no gap
    everything = list(recorded.records())
    messages = [r for r in everything if isinstance(r, FeedMessage)]
    assert isinstance(everything[0], Snapshot) and messages
    assert not any(isinstance(r, Gap) for r in everything)
    seqs = [m.seq for m in messages if m.seq is not None]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)  # each once, in order
    last_seq = seqs[-1]
    assert recorded.manifest.segments[-1].last_seq == last_seq

    # What the book must hold at the recording's end: the service's snapshot moved forward by
    # the odds messages the service sent after it (the recorder got them: it ran on to them).
    later = [
        parsed
        for m in messages
        if m.seq is not None and m.seq > seq
        for parsed in _odds_messages(m)
    ]
    open_records = [r for r in records if r.event.status not in ("settled", "cancelled")]
    expected = rolled_forward(open_records, later, MARKETS, complete=True)
    assert sum(len(view) for view in expected.values()) > 0, "nothing to compare"

    with replay(folder, "--speed", "10") as base_url:
        async with ApiClient(base_url, "demo") as replay_api:
            book = RecordingBook()
            sdk = feed_client(base_url, "demo", book, replay_api, list(expected))
            async with running(sdk):
                await wait_until(
                    lambda: (sdk.last_seq or 0) >= last_seq,
                    timeout=60,
                    what=f"the replay's last seq {last_seq}",
                )
                with sdk.lock:
                    found = [
                        f"event {event_id}: {line}"
                        for event_id, view in expected.items()
                        for line in mismatches(view, book_view(book, event_id), True)
                    ]
    assert found == [], "\n".join(found[:10])
    assert book.applied_twice() == []


def _odds_messages(record: FeedMessage) -> list[OddsMessage]:
    parsed, _bad = parse_frame(orjson.dumps(record.message))
    return [m for m in parsed if isinstance(m, OddsMessage)]

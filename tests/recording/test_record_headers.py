"""A recording describes every event whose odds it holds, not only those live at its start, so
a replay lists pending matches and matches created while recording (recording/headers.py)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from oddstui.api.errors import NotFound
from oddstui.api.feed_url import FeedFilters
from oddstui.api.rest import ApiClient
from oddstui.recording import FeedMessage, Snapshot, open_recording
from oddstui.recording.recorder import Recorder, RecordOptions
from tests.api.feed_harness import timings, wait_until
from tests.api.feed_service import FEED_KEY, FeedService
from tests.recording.test_record_replay import recording, replay

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FeedService]:
    flags = ("--seed", "11", "--speed", "10", "--updates-per-second", "200")
    with FeedService(tmp_path_factory.mktemp("headers-service"), *flags) as running_service:
        yield running_service


async def test_every_recorded_event_has_a_header_and_the_replay_lists_it(
    service: FeedService, tmp_path: Path
) -> None:
    folder = tmp_path / "rec"
    options = RecordOptions(
        out=folder,
        base_url=service.base_url,
        key=FEED_KEY,
        markets=FeedFilters().markets,
        events_every=600.0,  # no live refresh: the headers come from the walk and the lookups
        timings=timings(),
    )
    recorder = Recorder(options)
    async with recording(recorder):
        await wait_until(lambda: recorder.tap is not None, timeout=60, what="the recorder's tap")
        tap = recorder.tap
        assert tap is not None
        await wait_until(lambda: len(tap.headers.headed) > 0, timeout=60, what="the first headers")
        await wait_until(lambda: tap.writer.records > 500, timeout=60, what="500 records")
        await wait_until(lambda: tap.headers.missing == 0, timeout=60, what="every header")
        # Every odds message applied so far named an event now described (the feed client runs
        # on this loop: nothing was applied between the check and this line).
        assert recorder.client is not None
        last_seq = recorder.client.last_seq or 0

    everything = list(open_recording(folder).records())
    snapshots = [r for r in everything if isinstance(r, Snapshot)]
    described = {event["id"] for snapshot in snapshots for event in snapshot.events}
    first = {int(event["id"]) for event in snapshots[0].events}
    with_odds = {
        record.message["id"]
        for record in everything
        if isinstance(record, FeedMessage) and record.seq is not None and record.seq <= last_seq
    }
    assert with_odds, "the feed carried odds"
    assert with_odds <= described, sorted(with_odds - described)[:10]
    later = with_odds - first
    assert later, "some recorded odds are of events that were not live at the start"

    pending = next(
        event
        for snapshot in snapshots
        for event in snapshot.events
        if event["id"] in later and event.get("status") == "pending"
    )
    with replay(folder, "--speed", "10") as base_url:
        async with ApiClient(base_url, "demo") as replay_api:
            # The replay plays from the recording's start: wait until it has played the header.
            for _ in range(600):
                with contextlib.suppress(NotFound):
                    await replay_api.event(pending["id"])
                    break
                await asyncio.sleep(0.1)
            listed = await replay_api.events(pending["sport"]["slug"], limit=5000)
            assert pending["id"] in {event.id for event in listed}
            found = await replay_api.event(pending["id"])
            assert (found.home, found.away) == (pending["home"], pending["away"])

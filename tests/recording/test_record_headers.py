"""The desk's `--record` describes every event whose odds it records, not only the live ones: a
pending match the desk follows (its Event screen asks the feed to keep its odds) gets its header
from the service once (recording/headers.py), so a replay of the recording lists it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import httpx
import pytest

from oddstui.api.errors import NotFound
from oddstui.api.rest import ApiClient
from oddstui.recording import FeedMessage, Snapshot, open_recording
from oddstui.tui.launch import build_app
from tests.recording.test_record_replay import replay
from tests.tui.conftest import DEMO_KEY, start_service, wait_for

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]


def odds_and_header(folder: Path, event_id: int) -> tuple[bool, bool]:
    """(the recording holds odds of the event, a snapshot describes it)."""
    records = list(open_recording(folder).records())
    odds = any(
        (isinstance(r, FeedMessage) and r.seq is not None and r.message.get("id") == event_id)
        or (isinstance(r, Snapshot) and any(o.get("id") == event_id for o in r.odds))
        for r in records
    )
    header = any(
        isinstance(r, Snapshot) and any(e.get("id") == event_id for e in r.events) for r in records
    )
    return odds, header


async def test_a_followed_pending_match_is_described_and_the_replay_lists_it(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "rec"
    service = start_service("--seed", "11", "--speed", "10")
    try:
        answer = httpx.get(
            service.base_url + "/events",
            params={"apiKey": DEMO_KEY, "sport": "football", "status": "pending"},
            timeout=30,
        )
        pending = [e for e in answer.json() if (e.get("bookmakerCount") or 0) >= 5]
        assert pending, "no quoted football match ahead"
        pending.sort(key=lambda e: e["date"])
        followed = pending[min(5, len(pending) - 1)]  # kicks off in a world hour or so
        app = build_app(service.base_url, DEMO_KEY, record=str(folder))
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for(lambda: app.hub.status.state == "live", pilot, timeout=60)
            app.hub.track([followed["id"]])  # what its Event screen does
            looked = [0.0, False]

            def recorded_with_its_header() -> bool:
                if time.monotonic() - looked[0] >= 1.0:  # the recording, read once a second
                    looked[:] = [time.monotonic(), all(odds_and_header(folder, followed["id"]))]
                return bool(looked[1])

            try:
                await wait_for(recorded_with_its_header, pilot, timeout=60)
            except AssertionError:
                odds, header = odds_and_header(folder, followed["id"])
                raise AssertionError(f"odds recorded: {odds}, header written: {header}") from None
    finally:
        service.stop()

    with replay(folder, "--speed", "100") as base_url:
        async with ApiClient(base_url, "demo") as replay_api:
            for _ in range(600):  # a replay plays from the recording's start
                with contextlib.suppress(NotFound):
                    await replay_api.event(followed["id"])
                    break
                await asyncio.sleep(0.1)
            listed = await replay_api.events("football", limit=5000)
            assert followed["id"] in {event.id for event in listed}
            found = await replay_api.event(followed["id"])
            assert (found.home, found.away, found.status) == (
                followed["home"],
                followed["away"],
                "pending",
            )

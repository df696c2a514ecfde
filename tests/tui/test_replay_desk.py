"""The desk against `oddstui replay`: the recorded matches, clocks and prices show, and the
status bar names the replay with its speed; the desk's `--record` records what it receives."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from oddstui.recording import FeedMessage, Snapshot, open_recording
from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.browse.live import LiveScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.status_bar import StatusBar
from oddstui.tui.launch import build_app
from tests.serving import READY, read_ready, terminate
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for
from tests.tui.screen_text import screen_text

pytestmark = pytest.mark.timeout(150)
PRICE = re.compile(r"\b\d{1,3}\.\d{2,3}\b")  # a decimal price, as the Event screen prints it


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Eight wall seconds of a 60x world, recorded by `oddstui record`."""
    service = start_service("--speed", "60", "--seed", "11")
    folder = tmp_path_factory.mktemp("desk-replay") / "rec"
    try:
        env = {**os.environ, "ODDSTUI_API_KEY": DEMO_KEY}
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "oddstui",
                "record",
                "--out",
                str(folder),
                "--base-url",
                service.base_url,
                "--duration",
                "8s",
            ],
            capture_output=True,
            text=True,
            timeout=90,
            env=env,
        )
        assert result.returncode == 0, result.stderr
    finally:
        service.stop()
    yield folder


@contextlib.contextmanager
def replaying(recorded: Path, speed: str) -> Iterator[Service]:
    process = subprocess.Popen(
        [sys.executable, "-m", "oddstui", "replay", str(recorded), "--port", "0", "--speed", speed],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        yield Service(read_ready(process, READY, 60.0, "oddstui replay"), process)
    finally:
        terminate(process)


async def test_desk_shows_the_replay(recorded: Path) -> None:
    books = ",".join(open_recording(recorded).manifest.bookmakers)
    with replaying(recorded, "10") as replay:
        app = build_app(replay.base_url, DEMO_KEY)
        async with app.run_test(size=(140, 40)) as pilot:
            await _shows_the_replay(app, pilot, replay.base_url, books)


def priced(base: str, event_id: str, books: str) -> bool:
    """Whether the replay serves the match any price (a recorded match may have none: a squash
    match between its markets, say, whose Event screen then rightly shows no price)."""
    odds = get(base, "/odds", eventId=event_id, bookmakers=books)
    return any(odds.get("bookmakers", {}).values())


async def _shows_the_replay(app: Any, pilot: Any, base: str, books: str) -> None:
    live = app.screen
    assert isinstance(live, LiveScreen)
    table = live.query_one(PatchTable)

    def status() -> str:
        return str(live.query_one(StatusBar).render())

    await wait_for(lambda: table.row_count > 0 and "REPLAY 10×" in status(), pilot, 60)
    clocks = [table.cell_text(key, "clock") for key in table.row_keys]
    assert any(clock.strip() for clock in clocks)  # the recorded matches' clocks
    first = next(str(key) for key in table.row_keys if priced(base, str(key), books))
    table.move_cursor(row=table.get_row_index(first))
    await pilot.press("enter")  # the first priced match's Event screen: its recorded prices
    await wait_for(lambda: app.screen is not live, pilot, 60)
    await wait_for(lambda: PRICE.search(screen_text(app)) is not None, pilot, 60)
    assert "REPLAY 10×" in str(app.screen.query_one(StatusBar).render())


async def test_the_replayed_arbitrages_are_listed_and_shown_on_the_board(recorded: Path) -> None:
    manifest = open_recording(recorded).manifest
    books = ",".join(manifest.bookmakers)
    with replaying(recorded, "100") as replay:  # at its end within a second
        base = replay.base_url
        events = [int(e["id"]) for e in get(base, "/events/live", sport="")]
        assert events, "the recording must hold live matches"

        def seq() -> int:
            params = {"eventId": str(events[0]), "bookmakers": books, "includeSeq": "true"}
            return int(
                httpx.get(f"{base}/odds", params={"apiKey": DEMO_KEY, **params}).headers[
                    "X-Service-Seq"
                ]
            )

        await wait_until(lambda: seq() == manifest.segments[-1].last_seq)
        listed = get(base, "/arbitrage-bets", bookmakers=books, limit="500")
        assert listed, "a minute of a 60x world has arbitrages"
        odds = {
            event_id: get(base, "/odds", eventId=str(event_id), bookmakers=books)["bookmakers"]
            for event_id in {item["eventId"] for item in listed}
        }
        for item in listed:
            market = item["market"]
            implied = 0.0
            for leg in item["legs"]:
                quoted = [
                    entry
                    for held in odds[item["eventId"]][leg["bookmaker"]]
                    if held["name"] == market["name"]
                    for entry in held["odds"]
                    if entry.get("hdp") == market.get("hdp")
                    and entry.get("label") == market.get("label")
                ]
                assert [entry[leg["side"]] for entry in quoted] == [leg["odds"]], item
                implied += 1 / float(leg["odds"])
            assert implied < 1 and len({leg["bookmaker"] for leg in item["legs"]}) > 1
        profits = [item["profitMargin"] for item in listed]
        assert profits == sorted(profits, reverse=True)

        app = build_app(base, DEMO_KEY, start_mode="arbitrage")
        async with app.run_test(size=(140, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, ArbitrageScreen)
            table = screen.query_one(PatchTable)
            await pilot.press("h")  # an ended replay's legs age into suspects: show them too
            await wait_for(lambda: not screen.hide_suspects and table.row_count > 0, pilot, 60)
            shown = {screen.arbs.rows[key].event_id for key in table.row_keys}
            assert shown & {item["eventId"] for item in listed}


def test_the_replays_dropping_odds_answer_from_what_it_holds_and_check_their_query(
    recorded: Path,
) -> None:
    with replaying(recorded, "100") as replay:
        base = replay.base_url
        # No price of an 8 s recording held the minute a move needs (MATHS.md's noise rule), so
        # there is no drop to list; an item's shape is pinned over built records in
        # tests/recording/test_replay_derived.py.
        assert get(base, "/dropping-odds", includeEventDetails="true", limit="200") == []
        for params, needle in (
            ({"markets": "Nope"}, "Nope"),
            ({"league": "premier-league"}, "requires sport"),
            ({"leagues": "no-such-league"}, "no-such-league"),
            ({"timeWindow": "6h"}, "timeWindow"),
        ):
            answer = httpx.get(
                f"{base}/dropping-odds", params={"apiKey": DEMO_KEY, **params}, timeout=30
            )
            assert answer.status_code == 400 and needle in answer.json()["error"], answer.text


def get(base: str, path: str, **params: str) -> Any:
    response = httpx.get(f"{base}{path}", params={"apiKey": DEMO_KEY, **params}, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


async def wait_until(condition: Any, timeout: float = 60.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.1)


async def test_desk_record_writes_what_it_receives(recorded: Path, tmp_path: Path) -> None:
    folder = tmp_path / "desk-rec"
    # Forty seconds of messages to take: a loaded machine may take a while to start the desk.
    with replaying(recorded, "0.2") as replay:
        app = build_app(replay.base_url, DEMO_KEY, record=str(folder))
        async with app.run_test(size=(140, 40)) as pilot:
            await _records(app, pilot, folder)
    _check_recorded(folder)


async def _records(app: Any, pilot: Any, folder: Path) -> None:
    feed = app.hub.feed
    assert feed is not None
    await wait_for(lambda: (feed.health().last_seq or 0) > 0, pilot, 60)

    def an_odds_message_recorded() -> bool:
        records = open_recording(folder).records()
        return any(isinstance(r, FeedMessage) and r.seq is not None for r in records)

    await wait_for(an_odds_message_recorded, pilot, 60)


def _check_recorded(folder: Path) -> None:
    recording = open_recording(folder)
    assert recording.manifest.ended is not None  # closed when the desk quit
    records = list(recording.records())
    assert any(isinstance(r, Snapshot) and r.events for r in records)  # the live events
    messages = [r for r in records if isinstance(r, FeedMessage) and r.seq is not None]
    assert messages and recording.manifest.bookmakers

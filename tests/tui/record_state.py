"""Record what the app asks of `oddstui serve --seed 42` into data/recorded.json.

The app itself visits every screen against the real service through a recording transport, so
whatever a screen requests (catalog, events, boards, crests) is captured. Run from the repository
root: `python -m tests.tui.record_state`, then `pytest tests/tui/test_snapshots.py
--snapshot-update` and `python screenshots/make.py`.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from oddstui.api.rest import ApiClient
from oddstui.config import WatchedEvent, save_watchlist
from oddstui.tui.app import OddsApp
from tests.tui.conftest import start_service
from tests.tui.recorded import DATA, SCREENS, RecordedFeed, body, encode, request_key

SEED = "42"


class RecordingTransport(httpx.AsyncBaseTransport):
    """Passes requests to the network and keeps every answer by request key."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.answers = answers

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        await response.aread()
        self.answers[request_key(str(request.url))] = encode(response)
        return response


async def visit(base_url: str, state: dict[str, Any], folder: Path) -> None:
    for name, mode, action in SCREENS:
        watchlist = folder / f"{name}.toml"
        save_watchlist(
            [WatchedEvent(e["id"], e["home"], e["away"]) for e in state["live"][:2]], watchlist
        )
        api = ApiClient(base_url, "demo", transport=RecordingTransport(state["answers"]))
        app = OddsApp(api, RecordedFeed(), watchlist_path=watchlist, start_mode=mode)
        async with app.run_test(size=(120, 40)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause(0.5)
            if action is not None:
                action(app, state)
            for _ in range(3):
                await app.workers.wait_for_complete()
                await pilot.pause(0.5)
        print(f"visited {name}")


def one_moment(answers: dict[str, Any]) -> None:
    """Give every listing's live events the status, score and clock of the live listing.

    The screens are visited one after another, so a league's listing was answered seconds
    before or after the live one, and the two read a match differently (a running 45+2' and a
    halftime): the snapshots then showed whichever the desk took last, a race."""
    live = {event["id"]: event for event in body(answers["/events/live"])}
    for request, answer in answers.items():
        listing = body(answer) if request.startswith("/events?") else None
        if isinstance(listing, list):
            for event in listing:
                now = live.get(event.get("id"))
                if now is not None:
                    for key in ("status", "scores", "clock"):
                        if key in now:
                            event[key] = now[key]


def save(state: dict[str, Any]) -> None:
    DATA.write_text(json.dumps(state, indent=None, ensure_ascii=False))


def frozen_time() -> float:
    """The moment snapshots freeze time at: the recording's own. The service's world runs on
    the wall clock, so a new recording kept at an older moment would date its prices days
    ahead of the frozen clock."""
    return time.time()


def main() -> None:
    service = start_service("--seed", SEED, "--speed", "1")
    try:
        with httpx.Client(base_url=service.base_url + "/", timeout=30) as http:
            live = http.get("events/live", params={"apiKey": "demo"}).json()
            football = http.get("leagues", params={"sport": "football", "apiKey": "demo"}).json()
        league = max(football, key=lambda item: item.get("eventsCount") or 0)["slug"]
        with_crest = [e for e in live if e["sport"]["slug"] == "football"] or live
        state: dict[str, Any] = {
            "seed": SEED,
            "recorded_at": frozen_time(),
            "league": league,
            "event": with_crest[0]["id"],
            "live": live,
            "answers": {},
        }
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(visit(service.base_url, state, Path(folder)))
        del state["live"]
        one_moment(state["answers"])
        save(state)
        print(f"recorded {len(state['answers'])} answers into {DATA}")
    finally:
        service.stop()


if __name__ == "__main__":
    if sys.argv[1:] == ["--one-moment"]:  # align the recording in place, without re-recording
        state = json.loads(DATA.read_text())
        one_moment(state["answers"])
        save(state)
    else:
        main()

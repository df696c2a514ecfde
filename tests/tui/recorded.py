"""A recorded state of the built-in service, replayed to the app for snapshots and screenshots.

Snapshots must not change from run to run, and a live world does. So `record_state.py` takes the
REST answers of one `oddstui serve --seed 42` once; here they are served back through httpx's
`MockTransport` to the real `ApiClient`, with a feed that reports a fixed healthy state. Behaviour
tests never use this: they run against the service itself.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

from oddstui.api.rest import ApiClient
from oddstui.config import WatchedEvent, save_watchlist
from oddstui.tui.app import OddsApp
from oddstui.tui.feed_port import FeedUpdate

DATA = Path(__file__).parent / "data" / "recorded.json"
BASE_URL = "http://recorded.invalid/v3"


def request_key(url: str) -> str:
    """`/path?a=1&b=2` with the query sorted and the key left out."""
    parts = urlsplit(url)
    path = parts.path.split("/v3", 1)[-1]
    query = sorted((k, v) for k, v in parse_qsl(parts.query) if k != "apiKey")
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query) if query else "")


def load() -> dict[str, Any]:
    return json.loads(DATA.read_text())  # type: ignore[no-any-return]


def transport(state: dict[str, Any]) -> httpx.MockTransport:
    answers: dict[str, Any] = state["answers"]
    headers = {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "4963",
        "x-ratelimit-reset": "2026-11-21T10:00:00Z",
    }

    def answer(request: httpx.Request) -> httpx.Response:
        key = request_key(str(request.url))
        if key not in answers:
            return httpx.Response(404, json={"error": f"not recorded: {key}"}, headers=headers)
        return httpx.Response(200, json=answers[key], headers=headers)

    return httpx.MockTransport(answer)


class RecordedFeed:
    """A feed that stays live at one seq, its last frame always 0.4 s old."""

    book = None
    lock = None

    def __init__(self, state: str = "live", seq: int = 184_467, detail: str = "") -> None:
        self.state, self.seq, self.detail = state, seq, detail

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def reconnect(self) -> None: ...

    def track(self, event_ids: list[int]) -> None: ...

    def scores_refreshed(self) -> None: ...

    def drain(self) -> list[FeedUpdate]:
        return []

    def health(self) -> tuple[str, int | None, float | None, str]:
        return self.state, self.seq, time.monotonic() - 0.4, self.detail


def live_ids(state: dict[str, Any]) -> list[int]:
    return [event["id"] for event in state["answers"]["/events/live"]]


def recorded_app(
    folder: Path,
    *,
    start_mode: str = "live",
    feed_state: str = "live",
    watch: int = 2,
) -> OddsApp:
    """The app on the recorded state, time frozen at the recording, `watch` events starred."""
    state = load()
    watchlist = folder / "watchlist.toml"
    events = state["answers"]["/events/live"][:watch]
    save_watchlist(
        [
            WatchedEvent(
                e["id"], e["home"], e["away"], e["sport"]["slug"], e["league"]["name"], e["date"]
            )
            for e in events
        ],
        watchlist,
    )
    api = ApiClient(BASE_URL, "demo", transport=transport(state))
    frozen = float(state["recorded_at"])
    return OddsApp(
        api,
        RecordedFeed(state=feed_state),
        now=lambda: frozen,
        watchlist_path=watchlist,
        start_mode=start_mode,
    )

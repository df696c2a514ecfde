"""A recorded state of the built-in service, replayed to the app for snapshots and screenshots.

Snapshots must not change from run to run, and a live world does. So `record_state.py` takes the
REST answers of one `oddstui serve --seed 42` once; here they are served back through httpx's
`MockTransport` to the real `ApiClient`, with a feed that reports a fixed healthy state. Behaviour
tests never use this: they run against the service itself.
"""

from __future__ import annotations

import base64
import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

from oddstui.api.rest import ApiClient
from oddstui.book.oddsbook import OddsBook
from oddstui.config import WatchedEvent, save_watchlist
from oddstui.tui.app import OddsApp
from oddstui.tui.desk.feed import BookFeed, FeedHealth

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


#: Marks a stored answer (status, type, body) apart from a bare JSON body.
MARK = "__recorded__"
HEADERS = {
    "x-ratelimit-limit": "5000",
    "x-ratelimit-remaining": "4963",
    "x-ratelimit-reset": "2026-11-21T10:00:00Z",
}


def encode(response: httpx.Response) -> dict[str, Any]:
    """A response as stored: status, content type and body (JSON, or base64 for images)."""
    kind = response.headers.get("content-type", "")
    stored: dict[str, Any] = {MARK: True, "status": response.status_code, "type": kind}
    if "json" in kind:
        stored["json"] = response.json()
    else:
        stored["base64"] = base64.b64encode(response.content).decode()
    return stored


def body(stored: Any) -> Any:
    """The JSON body of a stored answer (a bare JSON body is accepted too)."""
    return stored["json"] if isinstance(stored, dict) and stored.get(MARK) else stored


def decode(stored: Any) -> httpx.Response:
    if not (isinstance(stored, dict) and stored.get(MARK)):
        return httpx.Response(200, json=stored, headers=HEADERS)  # a bare JSON body
    headers = {**HEADERS, "content-type": stored["type"]}
    if "json" in stored:
        return httpx.Response(stored["status"], json=stored["json"], headers=headers)
    return httpx.Response(
        stored["status"], content=base64.b64decode(stored["base64"]), headers=headers
    )


def transport(state: dict[str, Any]) -> httpx.MockTransport:
    answers: dict[str, Any] = state["answers"]

    def answer(request: httpx.Request) -> httpx.Response:
        key = request_key(str(request.url))
        if key not in answers:
            return httpx.Response(404, json={"error": f"not recorded: {key}"}, headers=HEADERS)
        return decode(answers[key])

    return httpx.MockTransport(answer)


class RecordedFeed(BookFeed):
    """A feed that stays live at one seq, its last frame always 0.4 s old. Its book takes the
    recorded REST answers' scores (as the desk's does) and shows no prices."""

    monotonic = staticmethod(time.monotonic)

    def __init__(self, state: str = "live", seq: int = 184_467, detail: str = "") -> None:
        super().__init__(OddsBook(clock=self.monotonic), threading.RLock())
        self.state, self.seq, self.detail = state, seq, detail

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def reconnect(self) -> None: ...

    def track(self, event_ids: list[int]) -> None: ...

    def scores_refreshed(self) -> None: ...

    def keep_bookmakers(self, names: list[str]) -> None: ...

    def on_change(self, wake: Callable[[], None]) -> None: ...

    @contextlib.contextmanager
    def reading(self) -> Iterator[OddsBook | None]:
        yield None

    def health(self) -> FeedHealth:
        return FeedHealth(self.state, self.seq, self.monotonic() - 0.4, self.detail, None)


def live_ids(state: dict[str, Any]) -> list[int]:
    return [event["id"] for event in body(state["answers"]["/events/live"])]


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
    events = body(state["answers"]["/events/live"])[:watch]
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


#: The screens visited when recording and when taking screenshots: (name, mode, action).
SCREENS: list[tuple[str, str, Callable[[OddsApp, dict[str, Any]], object] | None]] = [
    ("live", "live", None),
    ("sports", "sports", None),
    ("leagues", "sports", lambda app, state: app.open_sport("football")),
    ("events", "sports", lambda app, state: app.open_league("football", state["league"])),
    ("event", "live", lambda app, state: app.open_event(state["event"])),
    ("watchlist", "watchlist", None),
    ("arbitrage", "arbitrage", None),
    ("value", "value", None),
    ("dropping", "dropping", None),
    ("help", "live", lambda app, state: app.action_help()),
]

"""A recorded Event screen for snapshots and screenshots: the app on recorded REST answers, with a
feed whose book holds two recorded odds records of the event, all clocks frozen.

Behaviour tests never use this: they run against the service itself (test_event_screen.py).
"""

from __future__ import annotations

import base64
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from oddstui.api.models import parse_odds_record
from oddstui.api.rest import ApiClient
from oddstui.book.oddsbook import OddsBook
from oddstui.tui.app import OddsApp
from tests.tui.recorded import BASE_URL, RecordedFeed, request_key

DATA = Path(__file__).parent / "data" / "event.json"
#: The book's frozen clock; the second odds record arrived one second before it.
FROZEN_MONOTONIC = 10_000.0


def load() -> dict[str, Any]:
    return json.loads(DATA.read_text())  # type: ignore[no-any-return]


def transport(state: dict[str, Any]) -> httpx.MockTransport:
    answers: dict[str, Any] = state["answers"]
    logos: dict[str, str | None] = state["logos"]
    headers = {"x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4971"}

    def answer(request: httpx.Request) -> httpx.Response:
        key = request_key(str(request.url))
        parts = key.split("?")[0].split("/")
        if len(parts) == 4 and parts[1] == "participants" and parts[3] == "logo":
            png = logos.get(parts[2])
            if png:
                return httpx.Response(200, content=base64.b64decode(png), headers=headers)
            return httpx.Response(404, json={"error": "no logo"}, headers=headers)
        if key not in answers:
            return httpx.Response(404, json={"error": f"not recorded: {key}"}, headers=headers)
        return httpx.Response(200, json=answers[key], headers=headers)

    return httpx.MockTransport(answer)


class RecordedEventFeed(RecordedFeed):
    """Live at one seq, with a book: the first record 30 s old, the second 1 s old."""

    def __init__(self, state: dict[str, Any]) -> None:
        super().__init__()
        self.monotonic = lambda: FROZEN_MONOTONIC
        self._book = OddsBook(clock=self.monotonic)
        before, after = (parse_odds_record(record) for record in state["odds"])
        self._book.install_snapshot([before], received=FROZEN_MONOTONIC - 30)
        self._book.install_snapshot([after], received=FROZEN_MONOTONIC - 1)
        self._book.take_changes()

    @contextlib.contextmanager
    def reading(self) -> Iterator[OddsBook | None]:
        with self._lock:
            yield self._book


def event_app(folder: Path, odds_format: str = "decimal") -> tuple[OddsApp, int]:
    """The app on the recorded state, time frozen, and the event to open."""
    from oddstui import config

    state = load()
    api = ApiClient(BASE_URL, "demo", transport=transport(state))
    frozen = float(state["recorded_at"])
    app = OddsApp(
        api,
        RecordedEventFeed(state),
        settings=config.Settings(odds_format=odds_format),
        now=lambda: frozen,
        watchlist_path=folder / "watchlist.toml",
        start_mode="live",
    )
    return app, int(state["event"])


async def open_recorded_event(pilot: Any, event_id: int) -> None:
    """Open the event and wait until its crests and prices are drawn."""
    from oddstui.tui.event.crest import Crest
    from oddstui.tui.event.event_screen import EventScreen

    app = pilot.app
    await app.workers.wait_for_complete()
    await pilot.pause(0.2)
    app.open_event(event_id)
    for _ in range(100):
        await pilot.pause(0.05)
        screen = app.screen
        crests = list(screen.query(Crest)) if isinstance(screen, EventScreen) else []
        if crests and all(not crest.has_class("-loading") for crest in crests):
            break
    await app.workers.wait_for_complete()
    await pilot.pause(0.3)


async def event_screenshot(size: tuple[int, int], path: Path) -> None:
    """The Event screen's SVG for screenshots/ (screenshots/make.py calls it)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        app, event_id = event_app(Path(folder))
        async with app.run_test(size=size) as pilot:
            await open_recorded_event(pilot, event_id)
            path.write_text(app.export_screenshot(title="oddstui · event"))

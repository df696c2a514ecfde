"""Record what the part-2 settings, alerts, movement and history screens ask of
`oddstui serve --seed 42` into data/settings.json, and replay it for their snapshots.

Run from the repository root: `python -m tests.tui.record_settings`, then
`pytest tests/tui/settings/test_settings_snapshots.py --snapshot-update` and
`python screenshots/make.py`.
The app itself visits each shot against the real service through a recording transport.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from textual.widgets import Input

from oddstui.api.rest import ApiClient
from oddstui.tui.alerts.rule_modal import AlertRuleModal
from oddstui.tui.app import OddsApp
from oddstui.tui.event.movement_modal import MovementModal
from oddstui.tui.settings.bookmakers import BookmakersScreen
from tests.tui.recorded import RecordedFeed, transport

DATA = Path(__file__).parent / "data" / "settings.json"
SEED = "42"


def _movement(app: OddsApp, state: dict[str, Any]) -> None:
    app.push_screen(
        MovementModal(
            state["pending"],
            state["title"],
            state["bookmaker"],
            "ML",
            (None, None),
            ["home", "draw", "away"],
            state.get("others", []),  # overlaid on the first bookmaker's line
        )
    )


#: (name, action) of each shot; every one starts on the Live screen.
SHOTS: list[tuple[str, Callable[[OddsApp, dict[str, Any]], object]]] = [
    ("settings", lambda app, state: app.action_settings()),
    ("bookmakers", lambda app, state: app.push_screen(BookmakersScreen())),
    ("movement", _movement),
    ("closing", lambda app, state: app.open_event(state["settled"])),
    (
        "alert-rule",
        lambda app, state: app.push_screen(AlertRuleModal(state["pending"], state["title"])),
    ),
]


def load() -> dict[str, Any]:
    return json.loads(DATA.read_text())  # type: ignore[no-any-return]


def settings_app(folder: Path, state: dict[str, Any] | None = None) -> OddsApp:
    """The app on the recorded answers, time frozen at the recording, on the Live screen."""
    state = state or load()
    api = ApiClient("http://recorded.invalid/v3", "demo", transport=transport(state))
    frozen = float(state["recorded_at"])
    return OddsApp(
        api, RecordedFeed(), now=lambda: frozen, watchlist_path=folder / "watchlist.toml"
    )


async def visit(base_url: str, state: dict[str, Any], folder: Path) -> None:
    from tests.tui.record_state import RecordingTransport

    for name, action in SHOTS:
        api = ApiClient(base_url, "demo", transport=RecordingTransport(state["answers"]))
        app = OddsApp(api, RecordedFeed(), watchlist_path=folder / f"{name}.toml")
        async with app.run_test(size=(120, 40)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause(0.5)
            action(app, state)
            for _ in range(3):
                await app.workers.wait_for_complete()
                await pilot.pause(0.5)
        print(f"visited {name}")


def main() -> None:
    from tests.tui.conftest import start_service

    service = start_service("--seed", SEED, "--speed", "1")
    try:
        with httpx.Client(base_url=service.base_url + "/", timeout=30) as http:

            def get(path: str, **params: Any) -> Any:
                response = http.get(path, params={**params, "apiKey": "demo"})
                response.raise_for_status()
                return response.json()

            pending = get("events", sport="football", status="pending", limit=50)
            event = max(pending, key=lambda e: e.get("bookmakerCount") or 0)
            books = get("bookmakers/selected")["bookmakers"]
            now = datetime.now(UTC)
            settled = None
            for league in get("leagues", sport="football"):
                found = get(
                    "historical/events",
                    sport="football",
                    league=league["slug"],
                    **{
                        "from": (now - timedelta(days=20)).strftime("%Y-%m-%dT%H:%M:%SZ"),
                        "to": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    },
                )
                settled = next((e["id"] for e in found if e["status"] == "settled"), None)
                if settled:
                    break
        state: dict[str, Any] = {
            "seed": SEED,
            "recorded_at": time.time(),
            "pending": event["id"],
            "title": f"{event['home']} v {event['away']}",
            "bookmaker": books[0],
            "others": books[1:4],
            "settled": settled,
            "answers": {},
        }
        with tempfile.TemporaryDirectory() as folder:
            asyncio.run(visit(service.base_url, state, Path(folder)))
        DATA.write_text(json.dumps(state, indent=None, ensure_ascii=False))
        print(f"recorded {len(state['answers'])} answers into {DATA}")
    finally:
        service.stop()


if __name__ == "__main__":
    main()


async def settings_screenshot(name: str, size: tuple[int, int], path: Path) -> None:
    """One shot as an SVG for screenshots/ (screenshots/make.py calls it)."""
    state = load()
    with tempfile.TemporaryDirectory() as folder:
        app = settings_app(Path(folder), state)
        async with app.run_test(size=size) as pilot:
            for _ in range(2):
                await app.workers.wait_for_complete()
                await pilot.pause(0.3)
            dict(SHOTS)[name](app, state)
            for _ in range(2):
                await app.workers.wait_for_complete()
                await pilot.pause(0.4)
            for field in app.screen.query(Input):
                field.cursor_blink = False
            await pilot.pause(0.1)
            path.write_text(app.export_screenshot(title=f"oddstui · {name}"))

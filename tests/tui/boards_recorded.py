"""The boards' recorded state (data/boards.json), replayed to the app with time frozen.

Self-contained on purpose: the catalog the app loads at start is recorded with the boards, so
these snapshots do not move when the shell's own recording (recorded.json) is redone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx

from oddstui.api.rest import ApiClient
from oddstui.tui.app import OddsApp
from tests.tui.recorded import RecordedFeed

#: The text typed into the search shot (recorded by record_boards.py).
SEARCH = "Atlético"
#: Board shots: name -> (start mode, keys pressed once the data is in).
SHOTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "arbitrage": ("arbitrage", ()),
    "ticket": ("arbitrage", ("enter",)),
    "value": ("value", ()),
    "dropping": ("dropping", ()),
    "search": ("value", ("slash", *SEARCH)),  # over a board of ours, not the shell's Live
}

DATA = Path(__file__).parent / "data" / "boards.json"
BASE_URL = "http://boards.invalid/v3"
HEADERS = {
    "x-ratelimit-limit": "5000",
    "x-ratelimit-remaining": "4890",
    "x-ratelimit-reset": "2026-11-21T10:00:00Z",
}


def request_key(url: str) -> str:
    """`/path?a=1&b=2` with the query sorted and the key left out."""
    parts = urlsplit(url)
    path = parts.path.split("/v3", 1)[-1]
    query = sorted((k, v) for k, v in parse_qsl(parts.query) if k != "apiKey")
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query) if query else "")


def replay(answers: dict[str, Any]) -> httpx.MockTransport:
    def answer(request: httpx.Request) -> httpx.Response:
        key = request_key(str(request.url))
        if key not in answers:
            return httpx.Response(404, json={"error": f"not recorded: {key}"}, headers=HEADERS)
        return httpx.Response(200, json=answers[key], headers=HEADERS)

    return httpx.MockTransport(answer)


def boards_app(folder: Path, mode: str) -> OddsApp:
    state = json.loads(DATA.read_text())
    api = ApiClient(BASE_URL, "demo", transport=replay(state["answers"]))
    frozen = float(state["recorded_at"])
    return OddsApp(
        api,
        RecordedFeed(seq=90_210),  # live at one seq, its last frame 0.4 s old, no prices
        now=lambda: frozen,
        watchlist_path=folder / "watchlist.toml",
        start_mode=mode,
    )


async def settle(pilot: Any) -> None:
    for _ in range(2):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.3)


async def show(pilot: Any, keys: tuple[str, ...]) -> None:
    """Let the recorded data in, press `keys`, and settle (cursor blink off)."""
    from textual.widgets import Input

    await settle(pilot)
    if keys:
        await pilot.press(*keys)
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False  # a blinking cursor differs from run to run
        await pilot.pause(0.5)  # the search's debounce
        await settle(pilot)


async def board_screenshot(name: str, size: tuple[int, int], path: Path) -> None:
    """One board shot as SVG (screenshots/make.py calls it)."""
    import tempfile

    mode, keys = SHOTS[name]
    with tempfile.TemporaryDirectory() as folder:
        app = boards_app(Path(folder), mode)
        async with app.run_test(size=size) as pilot:
            await show(pilot, keys)
            path.write_text(app.export_screenshot(title=f"oddstui · {name}"))

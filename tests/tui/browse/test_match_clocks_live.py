"""The Live board's clocks against the real built-in service in real time (`--speed 1`): over a
60 s window, the clock of up to ten live matches of different sports never goes back within a
period, and each sport reads its own way (football `67'`, basketball `Q4 7:12`, tennis `S2 4-3`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from oddstui.book.match_clock import (
    DOWN,
    ENDS,
    HOLE,
    INNINGS,
    OVERS,
    RACE,
    ROUNDS,
    SETS,
    UP,
    sport_clock,
)
from oddstui.tui.browse.live import LiveScreen
from oddstui.tui.desk.state import LIVE
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for

pytestmark = pytest.mark.slow  # handed out first (tests/conftest.py)

WINDOW = 60.0
MATCHES = 10

#: What each style of clock looks like on the board.
FORMATS = {
    UP: re.compile(r"^(\d+(\+\d+)?'|HT|Break)$"),
    DOWN: re.compile(r"^([A-Z]\d|OT\d?) \d{1,2}:\d\d$|^HT$|^Break$"),
    ROUNDS: re.compile(r"^R\d+ \d{1,2}:\d\d$|^Break$"),
    INNINGS: re.compile(r"^[▲▼]\d+$"),
    ENDS: re.compile(r"^End \d+$"),
    OVERS: re.compile(r"^\d+\.[0-5] ov$"),
    SETS: re.compile(r"^[A-Z]\d+( \d+-\d+)?$"),
    HOLE: re.compile(r"^Hole \d+$"),
    RACE: re.compile(r"^(\d+:)?\d{1,2}:\d\d$"),
}


@pytest.fixture(scope="module")
def real_time_service() -> Iterator[Service]:
    service = start_service("--speed", "1", "--seed", "1")
    yield service
    service.stop()


def progress(style: str, text: str) -> float | None:
    """How far into its period a clock text is, as a number that only grows; None for a text
    that is no time (a set score, a break)."""
    if text in ("", "HT", "Break"):
        return None
    if style == UP:
        minute, _, added = text.rstrip("'").partition("+")
        return int(minute) * 100 + int(added or 0)
    if style in (DOWN, ROUNDS, RACE):
        parts = [int(p) for p in text.split(" ")[-1].split(":")]
        seconds = sum(p * 60**i for i, p in enumerate(reversed(parts)))
        return -seconds if style in (DOWN, ROUNDS) else seconds
    if style == INNINGS:
        return 1.0 if text.startswith("▼") else 0.0
    if style == OVERS:
        overs, balls = text.split(" ")[0].split(".")
        return int(overs) * 6 + int(balls)
    if style == HOLE:
        return int(text.split(" ")[1])
    return None  # set sports show a score, no clock


async def test_clocks_never_go_back_within_a_period_and_read_per_sport(
    real_time_service: Service,
) -> None:
    app = build_app(real_time_service.base_url, DEMO_KEY, start_mode="live")
    async with app.run_test(size=(160, 50)) as pilot:
        assert isinstance(app.screen, LiveScreen)
        table = app.screen.table
        board = app.hub.board

        def live_rows_with_clocks() -> bool:
            return sum(1 for e in board.live_events() if e.clock is not None) >= 3

        await wait_for(live_rows_with_clocks, pilot, timeout=30)
        chosen: dict[str, int] = {}  # sport -> event id
        # A running clock first in each sport: one at half time for the whole window would
        # leave nothing to see move.
        clocked = [event for event in board.live_events() if event.clock is not None]
        for event in sorted(clocked, key=lambda event: not (event.clock and event.clock.running)):
            if event.sport_slug not in chosen:
                chosen[event.sport_slug] = event.id
        watched = dict(list(chosen.items())[:MATCHES])
        assert len(watched) >= 3, watched

        seen: dict[int, list[tuple[int, str]]] = {event_id: [] for event_id in watched.values()}
        deadline = time.monotonic() + WINDOW
        while time.monotonic() < deadline:
            for event_id in seen:
                event = board.events.get(event_id)
                key = str(event_id)
                if event is None or event.status != LIVE or event.clock is None:
                    continue
                if not table.has_row(key):
                    continue
                # A clock the desk only estimates wears a `~` (docs/desk.md): the reading is
                # the same clock, judged without it.
                text = table.cell_text(key, "clock").removesuffix("~")
                seen[event_id].append((event.clock.period, text))
            await pilot.pause(0.5)

    styles_seen = set()
    for sport, event_id in watched.items():
        samples = seen[event_id]
        if not samples:
            continue  # it ended at once: nothing to judge
        style = sport_clock(sport).style
        styles_seen.add(style)
        for _period, text in samples:
            assert FORMATS[style].match(text), f"{sport}: {text!r} is not a {style} clock"
        last: dict[int, float] = {}
        for period, text in samples:
            value = progress(style, text)
            if value is None:
                continue
            if period in last:
                assert value >= last[period], f"{sport} went back in period {period}: {samples}"
            last[period] = value
    assert len(styles_seen) >= 3, styles_seen
    # The clocks moved: a board that froze would pass the checks above.
    moving = [
        event_id
        for sport, event_id in watched.items()
        if sport_clock(sport).style in (UP, DOWN) and len({text for _, text in seen[event_id]}) > 1
    ]
    assert moving, seen

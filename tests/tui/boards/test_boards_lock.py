"""The boards copy figures out of the feed's book under its lock, then format with it released.

Against the real built-in service: every read of the book the UI makes goes through
`BookFeed.reading`. The test wraps it so that, while the UI thread holds the lock, a profiler
records every Python call into Rich or Textual (building text, writing cells, sorting the
table) and into the value maths (`book.fair`, `book.value`). None may happen: the socket
reader would wait on them.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
import rich
import textual

import oddstui.book.fair
import oddstui.book.value
from oddstui.book.oddsbook import OddsBook
from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.value.value_screen import ValueBetsScreen
from oddstui.tui.desk.feed import BookFeed
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.boards.test_boards_service import until_a_bookmaker_has_value_bets
from tests.tui.conftest import DEMO_KEY, Service, wait_for

FORBIDDEN_DIRS = tuple(str(Path(m.__file__).parent) + os.sep for m in (rich, textual))
FORBIDDEN_FILES = frozenset(str(Path(m.__file__)) for m in (oddstui.book.fair, oddstui.book.value))


class LockWatch:
    """Counts the UI's locked reads and what ran inside them that should not have."""

    def __init__(self) -> None:
        self.ui_thread = threading.get_ident()
        self.reads = 0
        self.under_lock: list[str] = []

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        path = frame.f_code.co_filename  # strings only: this runs for every call in the lock
        if path in FORBIDDEN_FILES or path.startswith(FORBIDDEN_DIRS):
            self.under_lock.append(f"{Path(path).name}:{frame.f_code.co_name}")


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch) -> LockWatch:
    watch = LockWatch()
    original = BookFeed.reading

    @contextlib.contextmanager
    def reading(self: BookFeed) -> Iterator[OddsBook | None]:
        with original(self) as book:
            if threading.get_ident() != watch.ui_thread:
                yield book
                return
            watch.reads += 1
            previous = sys.getprofile()
            sys.setprofile(watch.profile)
            try:
                yield book
            finally:
                sys.setprofile(previous)

    monkeypatch.setattr(BookFeed, "reading", reading)
    return watch


async def test_the_arbitrage_board_formats_with_the_lock_released(
    fast_service: Service, watch: LockWatch
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ArbitrageScreen)
        table = screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 5, pilot, timeout=30)
        reads = watch.reads
        # Sort by age (every row's leg times read), then let change sets and ticks redraw.
        await pilot.press("o")
        await wait_for(lambda: watch.reads > reads + 20, pilot, timeout=30)
        table.focus()
        await pilot.press("enter")  # the stake ticket reads its legs' moves from the book
        await pilot.pause(0.5)
        assert table.row_count > 0
    assert watch.reads > 20, "the board read the feed's book"
    assert watch.under_lock == []


async def test_the_value_board_does_its_maths_with_the_lock_released(
    fast_service: Service, watch: LockWatch
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="value")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ValueBetsScreen)
        table = screen.query_one(PatchTable)
        await until_a_bookmaker_has_value_bets(screen, table, pilot)
        reads = watch.reads
        await pilot.press("m")  # a fair price made here from a sharp book in the feed's book
        await wait_for(lambda: watch.reads > reads, pilot, timeout=30)
        await wait_for(
            lambda: any(table.cell_text(key, "method") != "service" for key in table.row_keys),
            pilot,
        )
    assert watch.reads > reads
    assert watch.under_lock == []

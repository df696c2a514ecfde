"""The Stale lines board against the real built-in service (a busy world: 60x speed, goals and
suspensions within seconds): every row is a book that still quotes its line, and its EV follows
from the price and fair price it shows.

The world runs at 1,000 updates a second, not the 200 of `fast_service`: a book takes down what
a move leaves over the bound (world/deadlines.py), so a world 60 times faster than real time on
200 updates a second keeps few soft books quoting behind a sharp move (0 to 8 rows a look over
30 s, measured), and the test waited on luck; at 1,000, about 40 a look."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from textual.widgets import Static

from oddstui.tui.intel.stale_rows import StaleRow
from oddstui.tui.intel.stale_screen import StaleLinesScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, feed_moves_on, start_service, wait_for
from tests.tui.intel.ev_check import assert_ev_follows

pytestmark = [pytest.mark.slow, pytest.mark.timeout(420)]


@pytest.fixture(scope="module")
def busy_service() -> Iterator[Service]:
    service = start_service("--speed", "60", "--seed", "11", "--updates-per-second", "1000")
    yield service
    service.stop()


def _edges(screen: StaleLinesScreen) -> int:
    """The summary's count of rows with EV above ε."""
    summary = str(screen.query_one("#stale-summary", Static).render())
    found = re.search(r"(\d+) with EV above", summary)
    assert found, summary
    return int(found.group(1))


def _redrawn_rows(screen: StaleLinesScreen) -> int:
    screen.redraw()
    return len(screen.rows)


def _quoted(screen: StaleLinesScreen, row: StaleRow) -> bool:
    line = screen.hub.intel.engine.lines.get((row.event_id, row.market, row.line))
    return line is not None and row.book in line.prices


async def test_rows_are_quoted_prices_whose_ev_follows_from_them(busy_service: Service) -> None:
    app = build_app(busy_service.base_url, DEMO_KEY, start_mode="stale")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, StaleLinesScreen)
        table = screen.query_one("#stale", PatchTable)
        await pilot.press("a")  # every row behind a move, those at or under fair too
        assert screen.all_rows
        # A book takes down what a score leaves over the bound, so rows are fewer than before.
        await wait_for(lambda: len(screen.rows) >= 10, pilot, timeout=90)
        checked = 0
        rounds = 0
        # Rows come and go as books follow, suspend and withdraw, and a row has no fair price
        # while the sharp books have its market down: look until 20 with one were checked.
        while checked < 20:
            rounds += 1
            assert rounds <= 20, f"only {checked} rows with a fair price over 20 looks"
            await feed_moves_on(app, pilot, 1000)
            # The busy world keeps some book behind a sharp move, if not at every moment.
            await wait_for(lambda: _redrawn_rows(screen), pilot, timeout=60)
            rows = list(screen.rows.values())
            unquoted = [row for row in rows if row.price is None or not _quoted(screen, row)]
            assert not unquoted, f"rows whose book no longer quotes the line: {unquoted[:3]}"
            for row in rows:
                if row.fair is not None:
                    assert_ev_follows(table.cell_text(row.key, "price"),
                                      table.cell_text(row.key, "fair"),
                                      table.cell_text(row.key, "ev"))
                    checked += 1
        # Edges over ε come and go with the world's moves (none stands over the bound long):
        # on a loaded machine the world moves more slowly.
        await wait_for(lambda: _edges(screen) > 0, pilot, timeout=150)
        await pilot.press("v")  # only the rows with EV above ε: the summary's count of them
        assert screen.edges_only
        epsilon = screen.hub.intel.engine.settings.epsilon

        def edge_rows_shown() -> bool:
            # The edge seen above may have gone by the time `v` is taken: wait for one again.
            return bool(screen.rows) and len(screen.rows) == _edges(screen) == table.row_count

        await wait_for(edge_rows_shown, pilot, timeout=150)
        rows = list(screen.rows.values())
        assert all(row.ev is not None and row.ev > epsilon for row in rows)

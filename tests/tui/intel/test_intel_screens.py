"""The Books screen and the Stale lines board over a staged session (the boards' recorded app,
its engine fed a fixed series): figures, the sister cluster, export, a row opening its event,
and names from the network shown as plain text."""

from __future__ import annotations

from pathlib import Path

import pytest

from oddstui.tui.event.event_screen import EventScreen
from oddstui.tui.intel.books_screen import BooksScreen
from oddstui.tui.intel.intel_rows import book_rows
from oddstui.tui.intel.stale_rows import stale_rows
from oddstui.tui.intel.stale_screen import StaleLinesScreen
from oddstui.tui.kit.patch_table import PatchTable
from tests.intel.synthetic import open_line, sharp_move, two_way
from tests.tui.boards_recorded import boards_app, settle
from tests.tui.intel.ev_check import assert_ev_follows
from tests.tui.intel_recorded import staged
from tests.tui.screen_text import screen_text


def _cells(table: PatchTable, key: str) -> list[str]:
    return [str(cell) for cell in table.get_row(key)]


async def test_books_shows_each_books_lag_and_the_sister_cluster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = boards_app(tmp_path, "books")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        staged(app)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BooksScreen)
        table = screen.query_one("#books", PatchTable)
        bet365 = _cells(table, "Bet365")
        assert bet365[:4] == ["Bet365", "7.0s", "8.0s", "40"]  # a 6 s lag, + 0-2 s by move
        assert _cells(table, "22Bet")[5] == "1xBet"  # its cluster: it copies 1xBet
        assert _cells(table, "DraftKings")[1] == "—"  # never followed: no median, not 300 s
        assert _cells(table, "Pinnacle")[1] == "sharp"
        # Sorted by lag: the sharp books lead, then by seconds, the never-followed last.
        table.sort_by("lag")
        await settle(pilot)
        figures = {b.bookmaker: b for b in book_rows(app.hub.intel.engine)}
        order = [figures[key] for key in table.row_keys]
        assert order[0].sharp and order[-1].bookmaker == "DraftKings"
        lags = [b.lag_median for b in order if not b.sharp and b.lag_median is not None]
        assert len(lags) >= 2 and lags == sorted(lags)
        table.sort_by(None)
        await pilot.press("e")
        await settle(pilot)
        written = list(tmp_path.glob("oddstui-books-*.csv"))
        assert len(written) == 1
        text = written[0].read_text()
        assert "Bet365" in text and "lag_median_s" in text


async def test_stale_lines_flag_edges_and_open_the_event(tmp_path: Path) -> None:
    app = boards_app(tmp_path, "stale")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        staged(app)
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, StaleLinesScreen)
        assert screen.rows, "the staged session leaves DraftKings behind its last moves"
        assert {row.book for row in screen.rows.values()} == {"DraftKings", "Betway"}
        table = screen.query_one("#stale", PatchTable)
        for key in screen.rows:
            assert_ev_follows(table.cell_text(key, "price"), table.cell_text(key, "fair"),
                              table.cell_text(key, "ev"))
        # A heavy-margin book behind a small move: a negative EV among the positive ones.
        engine, now = app.hub.intel.engine, app.hub.now()
        key = (next(iter(screen.rows.values())).event_id, "ML", (None, None))
        open_line(engine, key, now + 1.0, 0.5, {"Heavy": 0.15})  # (the engine is at `now`)
        sharp_move(engine, key, now + 2.0, 0.5, 0.53)
        engine.advance(now + 6.0)
        screen.redraw()
        await settle(pilot)
        # Priced under the fair one: nothing to take, so hidden, counted in the summary.
        assert all(row.book != "Heavy" for row in screen.rows.values())
        hidden = [r for r in stale_rows(engine) if r.ev is not None and r.ev <= 0]
        assert hidden and f"({len(hidden)} at or under fair, hidden: a)" in screen_text(app)
        await pilot.press("a")  # every row behind a move, those under fair dimmed
        await settle(pilot)
        heavy = [row for row in screen.rows.values() if row.book == "Heavy"]
        assert heavy and heavy[0].ev is not None and heavy[0].ev < 0
        # Sorted by EV, largest first: by the number, whatever its sign and ⚠ in the text.
        table.sort_by("ev", descending=True)
        await settle(pilot)
        evs = [screen.rows[key].ev for key in table.row_keys]
        assert len(evs) == len(screen.rows) and evs == sorted(evs, reverse=True)  # type: ignore
        assert table.cell_text(table.row_keys[0], "ev").startswith("⚠")
        table.sort_by(None)  # back to the board's own order: oldest move first
        await settle(pilot)
        text = screen_text(app)
        assert "DraftKings" in text and "EV above 3%" in text
        first = next(iter(screen.rows.values()))
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, EventScreen)
        assert app.screen.event_id == first.event_id


async def test_network_names_stay_plain_text(tmp_path: Path) -> None:
    app = boards_app(tmp_path, "books")
    hostile = "[bold red]Evil[/bold red]\x1b[31mBook"
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        engine = app.hub.intel.engine
        now = app.hub.now()
        key = (1, "ML", (None, None))
        open_line(engine, key, now - 100.0, 0.5, {hostile: 0.05})
        sharp_move(engine, key, now - 90.0, 0.5, 0.56)
        engine.observe(now - 80.0, key, hostile, two_way(0.56, 0.05))
        engine.advance(now)
        app.screen.redraw()  # type: ignore[attr-defined]
        await settle(pilot)
        text = screen_text(app)
        assert "[bold red]Evil[/bol" in text  # literally (cut to the column)
        assert "\x1b" not in text

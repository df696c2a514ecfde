"""The arbitrage board against the real built-in service and its feed: rows that hold still
under the cursor, gone rows below live ones, pause, suspect marks, counts, export."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from oddstui.tui.boards.arbitrage.arb_cells import sport_names
from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.trading_board import PAUSED_MARK
from oddstui.tui.kit.marks import SUSPECT_MARK
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, feed_moves_on, wait_for
from tests.tui.screen_text import screen_text

STALE = "a leg was quoted before the last score or status change"


def live_first(screen: ArbitrageScreen, table: PatchTable) -> bool:
    """Live rows above gone ones (but the one the trader moved to: gone, it keeps its place)."""
    held = table.highlighted_key() if screen.holding else None
    keys = [key for key in table.row_keys if key != held]
    states = [screen.arbs.rows[key].vanished_at is None for key in keys]
    return states == sorted(states, reverse=True)


class DrawWatch:
    """Judges the board after each of its draws (a poll can miss a moment; under load, many).

    `judge()` returns what is wrong, or None; `draws` counts the draws, `wrong` keeps the first
    few faults.
    """

    def __init__(self, screen: ArbitrageScreen, judge: Callable[[], object]) -> None:
        self.draws = 0
        self.wrong: list[object] = []
        render = screen._render_rows

        def render_and_judge(*args: Any, **kwargs: Any) -> None:
            render(*args, **kwargs)
            self.draws += 1
            fault = judge()
            if fault is not None and len(self.wrong) < 3:
                self.wrong.append(fault)

        screen._render_rows = render_and_judge  # type: ignore[method-assign]


def any_gone_row(screen: ArbitrageScreen, table: PatchTable) -> bool:
    return any(screen.arbs.rows[key].vanished_at is not None for key in table.row_keys)


def arbitrage_board(app: Any) -> tuple[ArbitrageScreen, PatchTable]:
    """The Arbitrage screen the app opened on, and its table."""
    screen = app.screen
    assert isinstance(screen, ArbitrageScreen)
    return screen, screen.query_one(PatchTable)


async def test_the_highlighted_row_keeps_the_cursor_while_the_board_updates(
    fast_service: Service,
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(120, 40)) as pilot:
        screen, table = arbitrage_board(app)
        screen.hide_suspects = False  # every row, suspect or not: not what this test is about
        await wait_for(lambda: table.row_count > 12, pilot, timeout=30)
        await pilot.press("j", "j", "j", "j", "j")
        # The cursor follows its row through re-sorts, so the row may even have reached the top.
        held = table.highlighted_key()
        assert held is not None
        written, orders = table.cells_written, {tuple(table.row_keys)}
        went = False

        def cursor_stays() -> object:
            # Live, it moves with the order (the cursor with it); vanished, it stays, dimmed,
            # under the cursor until the trader moves: the cursor never lands on another row.
            nonlocal went
            orders.add(tuple(table.row_keys))
            if table.highlighted_key() != held:
                return ("cursor moved to", table.highlighted_key())
            if held not in screen.arbs.rows:
                return "a vanished highlighted row was dropped"
            went = went or screen.arbs.rows[held].vanished_at is not None
            return None

        watch = DrawWatch(screen, cursor_stays)
        # The board updated and the rows around the cursor moved (a re-sort, 3 s apart).
        await wait_for(
            lambda: watch.wrong or (len(orders) > 2 and table.cells_written > written), pilot, 90
        )
        assert not watch.wrong, watch.wrong
        if went:  # it vanished at some point: moving on lets it go
            await pilot.press("k" if table.cursor_row > 0 else "j")
            await wait_for(lambda: table.highlighted_key() != held, pilot)


async def test_a_gone_row_never_sits_above_a_live_one(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(120, 40)) as pilot:
        screen, table = arbitrage_board(app)
        await wait_for(lambda: table.row_count > 5, pilot, timeout=30)
        gone_seen: set[str] = set()

        def gone_below_live() -> object:
            if not live_first(screen, table):
                return [table.cell_text(k, "source") for k in table.row_keys]
            gone = [k for k in table.row_keys if screen.arbs.rows[k].vanished_at is not None]
            gone_seen.update(gone)
            labels = {table.cell_text(key, "source") for key in gone}
            return None if labels <= {"gone"} else labels

        watch = DrawWatch(screen, gone_below_live)
        # Some arbitrage went, and the board drew many times over with it shown.
        await wait_for(lambda: watch.wrong or (gone_seen and watch.draws > 60), pilot, 90)
        assert not watch.wrong, watch.wrong
        assert gone_seen, "some arbitrage went during the test"
        await wait_for(lambda: any_gone_row(screen, table), pilot, 30)
        # Every number of the counts line adds up.
        rows = [screen.arbs.rows[key] for key in table.row_keys]
        live = sum(1 for row in rows if row.vanished_at is None)
        line = screen_text(app)
        assert f"{len(rows)} shown: {live} live (" in line
        assert f"+ {len(rows) - live} gone" in line


async def test_pause_freezes_the_board_and_says_so(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(120, 40)) as pilot:
        screen, table = arbitrage_board(app)
        await wait_for(lambda: table.row_count > 5, pilot, timeout=30)
        await pilot.press("p")
        assert PAUSED_MARK in screen_text(app)
        frozen = (tuple(table.row_keys), table.cells_written)
        ticks: list[float] = []
        app.hub.ticked.subscribe(screen, ticks.append, immediate=True)
        await feed_moves_on(app, pilot)  # many change sets
        await wait_for(lambda: len(ticks) >= 4, pilot, timeout=30)  # and four ticks
        held = dict(screen.arbs.rows)
        await screen._fetch()  # the worker's path: an answer under way when the trader paused
        screen.redraw()  # as when a modal over the board (a ticket, help) closes
        assert (tuple(table.row_keys), table.cells_written) == frozen
        assert screen.arbs.rows == held  # what is shown is what an export writes
        await pilot.press("p")
        assert PAUSED_MARK not in screen_text(app)
        await wait_for(lambda: table.cells_written > frozen[1], pilot)


async def test_suspect_rows_are_hidden_by_default_and_h_shows_them_marked(
    fast_service: Service,
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(120, 40)) as pilot:
        screen, table = arbitrage_board(app)
        threshold = screen.suspect_profit

        def any_suspect_marked() -> bool:
            # The highlighted row stays, marked, when it turns suspect while they are hidden.
            held = table.highlighted_key()
            return any(
                table.cell_text(key, "profit").startswith(SUSPECT_MARK)
                for key in table.row_keys
                if key != held
            )

        def no_suspect_shown() -> bool:
            return screen.suspects_hidden > 0 and not any_suspect_marked()

        # At 60x speed a goal comes every few seconds; the slow books' legs then predate it.
        await wait_for(no_suspect_shown, pilot, timeout=45)
        assert screen.hide_suspects
        shown = screen_text(app)
        assert shown.count(f"{SUSPECT_MARK} hidden") == 1
        await pilot.press("h")

        def a_leg_older_than_a_goal_is_marked() -> bool:
            return any(
                reason == STALE and table.cell_text(key, "profit").startswith(SUSPECT_MARK)
                for key, reason in screen.suspects.items()
            )

        await wait_for(a_leg_older_than_a_goal_is_marked, pilot, timeout=45)
        assert screen.suspects_hidden == 0 and f"{SUSPECT_MARK} hidden" not in screen_text(app)
        # non-empty: waited above until a row was marked
        for key in table.row_keys:
            row = screen.arbs.rows[key]
            marked = table.cell_text(key, "profit").startswith(SUSPECT_MARK)
            assert marked == bool(screen.suspects[key])
            if row.profit_pct > threshold:
                assert marked
        await pilot.press("h")
        # Hidden again: no row shows the mark (there may be no suspect left to count by now).
        await wait_for(lambda: screen.hide_suspects and not any_suspect_marked(), pilot, timeout=30)


async def test_sort_keys_and_export_of_what_is_shown(
    fast_service: Service, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    # The service's arbitrages alone: no feed, so rows change only on a refetch.
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage", with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, table = arbitrage_board(app)
        screen.hide_suspects = False  # every row, suspect or not: not what this test is about
        await wait_for(lambda: table.row_count > 5, pilot, timeout=30)
        await pilot.press("o", "o", "o")  # profit -> age -> start -> sport
        assert screen.sort_by == "sport"
        await pilot.pause(0.3)
        events = app.hub.board.events
        live = [
            sport_names(row, events.get(row.event_id))[0].casefold()
            for row in (screen.arbs.rows[key] for key in table.row_keys)
            if row.vanished_at is None
        ]
        assert live == sorted(live)
        await pilot.press("p", "e")  # paused: what is exported is what is on screen
        await wait_for(lambda: list(tmp_path.glob("oddstui-arbitrage-*.csv")), pilot)
        (path,) = tmp_path.glob("oddstui-arbitrage-*.csv")
        with path.open(newline="") as handle:
            header, *rows = list(csv.reader(handle))
        # The rows held, in the board's order, as data (tests/tui/boards/test_exports_service.py
        # checks every column).
        assert header[:3] == ["eventId", "sport", "league"]
        assert len(rows) == table.row_count
        by_column = [dict(zip(header, row, strict=True)) for row in rows]
        shown = [screen.arbs.rows[k] for k in table.row_keys]
        assert [int(row["eventId"]) for row in by_column] == [arb.event_id for arb in shown]
        assert [float(row["profitPct"]) for row in by_column] == pytest.approx(
            [arb.profit_pct for arb in shown]
        )

        def said_where() -> bool:
            return path.name in " ".join(str(n.message) for n in app._notifications)

        await wait_for(said_where, pilot)


@pytest.mark.parametrize(
    ("mode", "slug", "price"),
    [("value", "value-bets", "price"), ("dropping", "dropping-odds", "price")],
)
async def test_value_and_dropping_boards_export_their_rows_as_data(
    fast_service: Service,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
    slug: str,
    price: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode=mode, with_feed=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        table = screen.query_one(PatchTable)
        await wait_for(lambda: screen.loaded_at is not None and table.row_count, pilot, 30)
        await pilot.press("p", "E")
        await wait_for(lambda: list(tmp_path.glob(f"oddstui-{slug}-*.json")), pilot)
        (path,) = tmp_path.glob(f"oddstui-{slug}-*.json")
        records = json.loads(path.read_text())
        assert records and len(records) == table.row_count
        value_ids = {item.id: item.event_id for item in screen.items} if mode == "value" else {}
        for record, key in zip(records, table.row_keys, strict=True):
            # The board's own rows, in its order, with their event ids (numbers, not cells).
            assert (
                record["eventId"] == value_ids.get(key, None)
                or str(record["eventId"]) == (key.split("|")[0])
            )
            assert record[price] is None or record[price] > 1.0
            assert isinstance(record["updatedAt"], float)
            assert record["market"] and record["side"] and record["event"]
        assert any(isinstance(record[price], float) for record in records)


def detail_line(app: Any) -> str:
    """The line under the board's table as shown, its wrapped lines joined."""
    detail = app.screen.query_one(".detail")
    top, height = detail.region.y, detail.region.height
    lines = screen_text(app).splitlines()[top : top + height]
    return " ".join(line.strip() for line in lines)


async def test_the_highlighted_arbitrage_is_shown_whole_under_a_narrow_board(
    fast_service: Service,
) -> None:
    from oddstui.tui.kit.prices import price_text

    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(80, 24)) as pilot:
        screen, table = arbitrage_board(app)
        await wait_for(lambda: table.row_count > 3, pilot, timeout=30)
        await pilot.press("p")  # paused: the rows stay while the test reads them
        await wait_for(lambda: screen.paused, pilot)
        # The longest line of the board: three legs with long names take three lines at 80.
        key = max(table.row_keys, key=lambda k: len(screen.detail(k) or ""))
        table.focus()
        table.move_cursor(row=table.get_row_index(key))
        row = screen.arbs.rows[key]
        event = app.hub.board.events.get(row.event_id)

        def shown_whole() -> bool:
            joined = detail_line(app)
            return (
                row.line_text in joined
                and (event is None or event.title in joined)
                and all(f"{leg.bookmaker} " in joined for leg in row.legs)
                and all(f" {price_text(leg.price, 'decimal')}" in joined for leg in row.legs)
            )

        await wait_for(shown_whole, pilot)
        assert {"profit", "event", "market", "legs"} <= set(table.shown_columns())


@pytest.mark.parametrize("mode", ["value", "dropping"])
async def test_the_line_under_a_narrow_board_names_the_columns_it_hid(
    fast_service: Service, mode: str
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode=mode, with_feed=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        table = screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 1, pilot, timeout=30)
        await pilot.press("p", "j")
        key = table.highlighted_key()
        assert key is not None
        hidden = [c for c in table.specs if c.key not in table.shown_columns()]
        assert hidden, "at 80 columns the board hides some columns"
        wanted = [
            f"{column.label} {table.cell_text(key, column.key).strip()}"
            for column in [table.specs[1], *hidden[:1]]  # the event, and the first one hidden
            if table.cell_text(key, column.key).strip() not in ("", "–")
        ]

        def named() -> bool:
            return all(part in detail_line(app) for part in wanted)

        await wait_for(named, pilot)

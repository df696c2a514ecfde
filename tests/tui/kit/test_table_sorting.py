"""Tables against the real service: sort by a header click or a key, the choice kept across a
restart; the text filter; hiding a column."""

from __future__ import annotations

import tomllib
from pathlib import Path

from textual.widgets import SelectionList

from oddstui.tui.kit.columns import PADDING
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.table_filter import TableFilter
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for


def header_x(table: PatchTable, column: str) -> int:
    """The x of a column's header cell inside the table."""
    x = 0
    for key, width in table.column_layout:
        if key == column:
            return x + 1
        x += width + PADDING
    raise AssertionError(f"{column} is not shown")


def clocks_descending(table: PatchTable) -> bool:
    values = [table.sort_value(key, "clock") for key in table.row_keys]
    present = [value for value in values if value is not None]
    return present == sorted(present, reverse=True) and values[: len(present)] == present


async def test_sorting_by_clock_survives_a_restart(fast_service: Service, home: Path) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 3, pilot)
        screen_order = table.row_keys
        await pilot.pause(0.5)  # the header is where the layout says once it has been painted
        for _ in range(2):  # ascending, then descending
            await pilot.click(PatchTable, offset=(header_x(table, "clock"), 0))
            await pilot.pause(0.5)  # two clicks, not a double click
        assert (table.prefs.sort, table.prefs.descending) == ("clock", True)
        await wait_for(lambda: clocks_descending(table), pilot)
        assert table.row_keys != screen_order
        await pilot.press("q")
    saved = tomllib.loads((home / "tables.toml").read_text())
    assert saved["live"]["sort"] == "clock" and saved["live"]["descending"] is True

    again = build_app(fast_service.base_url, DEMO_KEY)
    async with again.run_test(size=(120, 40)) as pilot:
        table = again.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 3, pilot)
        assert (table.prefs.sort, table.prefs.descending) == ("clock", True)
        await wait_for(lambda: clocks_descending(table), pilot)
        assert str(table.columns[table.ordered_columns[3].key].label).endswith("▼")
        await pilot.press("o")  # the next column after Clock: Period
        assert table.prefs.sort == "detail" and not table.prefs.descending


async def test_find_shows_only_matching_rows_and_escape_clears(fast_service: Service) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 3, pilot)
        wanted = table.row_keys[-1]
        words = app.hub.board.events[int(wanted)].home.casefold().split()

        def row(key: str) -> str:
            return " ".join(table.cell_text(key, column) for column in table.shown_columns())

        def only_matching_rows() -> bool:
            # Exactly the rows whose text has every word (at 60x the wanted event may end
            # meanwhile, and others kick off: what matches is read afresh each time).
            matching = {
                key for key in table.all_keys if all(word in row(key).casefold() for word in words)
            }
            return set(table.row_keys) == matching and len(matching) < len(table.all_keys)

        await pilot.press("F")
        finder = app.screen.query_one(TableFilter)
        assert app.focused is finder
        finder.value = " ".join(words).upper()  # set: pilot keys cannot spell every letter
        await wait_for(only_matching_rows, pilot)
        await pilot.press("escape")
        await wait_for(lambda: len(table.row_keys) == len(table.all_keys) > 1, pilot)
        assert table.query_text == ""
        assert app.focused is table


async def test_a_hidden_column_stays_hidden_after_a_restart(
    fast_service: Service, home: Path
) -> None:
    app = build_app(fast_service.base_url, DEMO_KEY)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 0, pilot)
        assert "league" in table.shown_columns()
        await pilot.press("c")
        choices = app.screen.query_one(SelectionList)
        index = [column.key for column in table.specs].index("league")
        choices.highlighted = index
        await pilot.press("space", "escape")
        assert "league" not in table.shown_columns()
        await pilot.press("q")

    again = build_app(fast_service.base_url, DEMO_KEY)
    async with again.run_test(size=(120, 40)) as pilot:
        table = again.screen.query_one(PatchTable)
        await wait_for(lambda: table.row_count > 0, pilot)
        assert "league" not in table.shown_columns()
        assert "event" in table.shown_columns()

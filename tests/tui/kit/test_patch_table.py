"""The table widget itself in a bare app: rows kept apart from what is shown, so the filter, the
sort and hidden columns never lose a row or a cell written meanwhile."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.patch_table import PatchTable

COLUMNS = [Column("name", "Name", 12), Column("price", "Price", 6), Column("note", "Note", 8, 2)]


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        table = PatchTable(id="t")
        table.set_columns(COLUMNS)
        yield table


def row(name: str, price: str, note: str = "") -> dict[str, Text]:
    return {"name": Text(name), "price": Text(price), "note": Text(note)}


async def test_filter_sort_and_columns_keep_every_row() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(PatchTable)
        for key, cells in {"a": row("Alpha", "2.10"), "b": row("Beta", "1.90"),
                           "c": row("Gamma", "10.5")}.items():  # fmt: skip
            table.sync_row(key, cells)
        table.order_rows(["a", "b", "c"])
        table.sort_by("price")  # 1.90 < 2.10 < 10.5, read as numbers
        assert table.row_keys == ["b", "a", "c"]

        table.filter_text("alp")
        await pilot.pause()
        assert table.row_keys == ["a"]
        table.sync_row("b", row("Alpine", "1.95"))  # changed while hidden: now it matches
        await pilot.pause()
        assert table.row_keys == ["b", "a"] and table.cell_text("b", "price") == "1.95"

        table.hide_columns(["price"])
        assert table.shown_columns() == ["name", "note"]
        table.sync_row("a", row("Alpha", "2.20"))  # a hidden column is still kept
        table.hide_columns([])
        table.filter_text("")
        await pilot.pause()
        assert table.cell_text("a", "price") == "2.20"
        assert str(table.get_cell("a", "price")) == "2.20"  # and shown again
        assert table.row_keys == ["b", "a", "c"]

        table.sort_by(None)
        assert table.row_keys == ["a", "b", "c"]  # the screen's own order


async def test_a_narrow_table_drops_the_least_needed_column() -> None:
    app = TableApp()
    async with app.run_test(size=(30, 10)) as pilot:
        table = app.query_one(PatchTable)
        table.sync_row("a", row("Alpha", "2.10", "kept"))
        await pilot.pause()
        assert table.shown_columns() == ["name", "price"]
        before = table.rows["a"]  # type: ignore[index]
        await pilot.resize_terminal(60, 10)
        await pilot.pause()
        assert table.shown_columns() == ["name", "price", "note"]
        assert str(table.get_cell("a", "note")) == "kept"  # filled from the kept cells
        assert table.rows["a"] is before  # type: ignore[index]  # laid out in place, not rebuilt


async def test_a_screen_ordered_table_leaves_o_to_its_screen() -> None:
    from textual.screen import Screen

    from oddstui.tui.kit.columns_modal import ColumnsModal
    from oddstui.tui.kit.patch_table import ScreenOrderedTable

    class OwnSort(Screen[None]):
        BINDINGS = [("o", "own_sort", "Own sort")]
        pressed = 0
        columns_wanted: list[PatchTable] = []

        def compose(self) -> ComposeResult:
            table = ScreenOrderedTable(id="t")
            table.set_columns(COLUMNS)
            yield table

        def action_own_sort(self) -> None:
            self.pressed += 1

        def on_patch_table_columns_wanted(self, message: PatchTable.ColumnsWanted) -> None:
            self.columns_wanted.append(message.table)
            self.app.push_screen(ColumnsModal(message.table))

    app = TableApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.press("o")  # the plain table sorts
        assert app.query_one(PatchTable).prefs.sort == "name"
        screen = OwnSort()
        await app.push_screen(screen)
        table = screen.query_one(PatchTable)
        table.sync_row("a", row("Alpha", "2.10"))
        table.sync_row("b", row("Beta", "1.90"))
        table.focus()
        await pilot.pause()
        await pilot.press("o")
        assert screen.pressed == 1 and table.prefs.sort is None  # `o` went to the screen
        await pilot.press("down", "O")  # no column sort keys; the DataTable's keys are kept
        assert table.prefs.sort is None and table.cursor_row == 1
        await pilot.press("c")
        # `c` is still the table's: it asks its screen for the column chooser (a widget never
        # opens a screen itself).
        assert screen.columns_wanted == [table]
        assert isinstance(app.screen, ColumnsModal)

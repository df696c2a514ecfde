"""Rows added, removed and reordered repaint only the lines that changed, and every line painted
is the line the table holds: after each step, what the widget's paint cache holds (what the
terminal was sent) equals a fresh rendering of every visible line."""

from __future__ import annotations

import random
from typing import Any

from rich.text import Text
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult

from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.patch_table import PatchTable

COLUMNS = [Column("name", "Name", 14), Column("price", "Price", 8)]


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        table = PatchTable(id="t")
        table.set_columns(COLUMNS)
        yield table


def cells(key: str, price: float, tag: str = "") -> dict[str, Text]:
    return {"name": Text(f"row {key}{tag}"), "price": Text(f"{price:.2f}")}


def painted_and_fresh(table: PatchTable) -> tuple[list[Any], list[Any]]:
    """The lines as the paint cache holds them, and as rendered afresh now."""
    held = table._styles_cache._cache  # what was painted, line by line
    rendered = dict(table._rendered)  # a fresh rendering must not count as painted
    fresh = StylesCache().render_widget(table, table.size.region)
    table._rendered = rendered
    lines = range(table.size.height)
    return [list(held.get(y, [])) for y in lines], [list(fresh[y]) for y in lines]


async def test_every_line_painted_is_the_line_the_table_holds_as_rows_come_go_and_move() -> None:
    rng = random.Random(5)
    app = TableApp()
    async with app.run_test(size=(40, 14)) as pilot:
        table = app.query_one(PatchTable)
        prices = {str(n): rng.uniform(1, 9) for n in range(60)}
        for key, price in prices.items():
            table.sync_row(key, cells(key, price))
        table.order_rows(sorted(prices, key=prices.__getitem__))
        await pilot.pause()
        table.move_cursor(row=3)
        for step in range(48):
            keys = list(prices)
            if step % 4 == 3:  # a row on screen leaves and comes back at once, new price
                key = table.row_keys[rng.randrange(8)]
                table.keep_rows([k for k in prices if k != key])
                table.sync_row(key, cells(key, prices[key], f" back {step}"))  # same place
            elif step % 4 == 0:  # a row leaves, on screen or below it
                del prices[rng.choice(keys)]
            elif step % 4 == 1:  # a row comes back with a new price
                key = str(rng.randrange(80))
                prices[key] = rng.uniform(1, 9)
                table.sync_row(key, cells(key, prices[key]))
            else:  # a price moves, and with it the order (step % 4 == 2)
                key = rng.choice(keys)
                prices[key] = rng.uniform(1, 9)
                table.sync_row(key, cells(key, prices[key]))
            table.keep_rows(prices)
            table.order_rows(sorted(prices, key=prices.__getitem__))
            await pilot.pause()
            before = set(table._styles_cache._dirty_lines)
            painted, fresh = painted_and_fresh(table)
            assert painted == fresh, f"step {step}: a stale line on screen"
            assert not before, f"step {step}: lines left unpainted: {before}"
        assert table.row_keys == sorted(prices, key=prices.__getitem__)[: len(table.row_keys)]


async def test_a_row_removed_below_the_screen_repaints_no_line_of_the_table() -> None:
    app = TableApp()
    async with app.run_test(size=(40, 14)) as pilot:
        table = app.query_one(PatchTable)
        for n in range(60):
            table.sync_row(str(n), cells(str(n), n))
        table.order_rows([str(n) for n in range(60)])
        await pilot.pause()
        rendered = []
        original = table.render_line

        def counting(y: int) -> Any:
            rendered.append(y)
            return original(y)

        table.render_line = counting  # type: ignore[method-assign]
        table.keep_rows([str(n) for n in range(59)])  # the last row, far below the screen
        table.sync_row("60", cells("60", 60))  # and one added below it
        table.order_rows([str(n) for n in range(59)] + ["60"])
        await pilot.pause()
        await pilot.pause()
        assert table.row_count == 60
        cursor_line = 1 + table.cursor_row  # DataTable repaints the cursor's row on any add
        assert set(rendered) <= {cursor_line}, f"lines repainted: {sorted(set(rendered))}"
        table.keep_rows([str(n) for n in range(1, 59)] + ["60"])  # the top row goes
        await pilot.pause()
        assert table.row_keys[0] == "1"
        assert sorted(set(rendered)) == list(range(1, table.size.height)), "every row moved up"

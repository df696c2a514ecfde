"""Helpers for boards whose row set changes a lot (filters): keep the cursor, drop rows cheaply."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from rich.text import Text

from oddstui.tui.kit.patch_table import PatchTable

#: Removing more rows than this at once rebuilds the table (DataTable.remove_row is O(rows)).
REBUILD_OVER = 40


def keep_only(
    table: PatchTable, wanted: Collection[str], cells: Callable[[str], Mapping[str, Text]]
) -> None:
    """Remove every row not in `wanted`; a big cut (a new filter) rebuilds from `cells(key)`."""
    shown = table.all_keys  # the text filter may hide some: they go too
    doomed = len(shown) - sum(1 for key in shown if key in wanted)
    if doomed > REBUILD_OVER and doomed > len(wanted):
        table.reset()
        for key in wanted:
            table.sync_row(key, cells(key))
        return
    table.keep_rows(wanted)

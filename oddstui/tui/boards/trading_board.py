"""What every trading board (arbitrage, value bets, dropping odds) lets the trader do with its
rows: pick the sort key, pause it, hide the suspect rows, export what it shows.

The order itself is `board_order.arrange`: live rows by the chosen key, the highlighted one held
at its index, gone rows below every live one.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Static

from oddstui.book.suspect import DEFAULT_SUSPECT_PROFIT
from oddstui.tui.boards.order import SORT_WORDS, Rank, arrange, next_sort_key
from oddstui.tui.kit.board_screen import BoardScreen
from oddstui.tui.kit.export import cell_records
from oddstui.tui.kit.export_action import export_and_say, export_bindings
from oddstui.tui.kit.marks import SUSPECT_MARK
from oddstui.tui.kit.patch_table import PatchTable

PAUSED_MARK = "⏸ PAUSED · p resumes"


class TradingBoard(BoardScreen):
    """A board of ranked rows.

    | key | action |
    |---|---|
    | `o` | next sort key: profit, age, start, sport |
    | `p` | pause the board (nothing moves until `p` again) |
    | `h` | show or hide the suspect rows (⚠): hidden by default, and counted |
    | `e` `E` `ctrl+e` | export the rows held, as data: CSV, JSON, Parquet (working folder) |
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "next_sort", "Sort", id="board-sort"),
        Binding("p", "pause", "Pause", id="board-pause"),
        Binding("h", "toggle_suspects", "⚠ rows", id="board-suspects"),
        *export_bindings("board-export"),
    ]

    #: Seconds between two full sorts while prices move (0: on every draw).
    RESORT_EVERY: ClassVar[float] = 0.0
    #: What the board's percent column is, as its first sort key says it ("by profit").
    RANK_WORD: ClassVar[str] = "profit"
    #: Seconds the row the trader moved to keeps its index while the others sort around it.
    HOLD_SECONDS: ClassVar[float] = 5.0

    def __init__(self) -> None:
        super().__init__()
        self.sort_by = "profit"
        self.paused = False
        # Edges no trader believes (a stale leg, a leg quoted before the match changed, a
        # profit too good) are hidden until asked for.
        self.hide_suspects = True
        #: Rows hidden as suspect at the last draw.
        self.suspects_hidden = 0
        #: Why each row of the last draw is suspect ("" when it is not), by row key.
        self.suspects: dict[str, str] = {}
        self._sorted_at = -math.inf
        self._held = False
        #: The trader asked for a new order: the next sort does not hold the highlighted row.
        self._free_order = False
        #: The highlighted row is held in place once the trader has moved the cursor (the
        #: first row, highlighted by default, is not a choice). `_left` is where it was left.
        self.holding = False
        self._left: str | None = None
        self._moved_at = -math.inf
        #: A re-sort was skipped (not due yet): the next draw or tick once due makes it.
        self.order_pending = False

    # ------------------------------------------------------------------ pausing

    def hold(self) -> bool:
        """True while paused: then whatever would change the rows (a change set, a REST
        answer, a sweep of gone rows, a draw from fresh data) is held, and the board catches
        up at once when the trader resumes. The one pause rule of every board."""
        if self.paused:
            self._held = True
        return self.paused

    def _changes_published(self, changes: object) -> None:
        if self.hold():
            return
        super()._changes_published(changes)  # type: ignore[arg-type]

    def _ticked(self, now: float) -> None:
        if not self.paused:
            super()._ticked(now)
        elif self.on_top:
            self._show_status(now)  # the feed's health still moves

    def action_pause(self) -> None:
        self.paused = not self.paused
        self._show_heading()
        if not self.paused and self._held:
            self._held = False
            self.redraw()

    def _show_heading(self) -> None:
        heading = Text(self.heading)
        if self.paused:
            heading.append("  ")
            heading.append(PAUSED_MARK, "reverse bold")
        self.query_one(".heading", Static).update(heading)

    # ------------------------------------------------------------------ order

    def sort_due(self, force: bool = False) -> bool:
        return force or time.monotonic() - self._sorted_at >= self.RESORT_EVERY

    def arrange_table(
        self,
        table: PatchTable,
        ranks: Mapping[str, Rank],
        *,
        force: bool,
        before: tuple[list[str], str | None] | None = None,
    ) -> None:
        """Order the rows: a full sort when `force` or due, else new rows slotted in place.

        Between sorts prices patch in place, so the board does not churn under the trader's
        eyes. The row the trader moved to keeps its index for `HOLD_SECONDS`, then takes its
        place in the order and the cursor goes with it: an order is never wrong for long. A
        row the trader moved to that vanished stays where it is, dimmed, under the cursor until
        the trader moves. `before` is (the order, the highlighted key) as shown before this draw
        changed the rows, when it did.
        """
        due = self.sort_due(force)
        now = time.monotonic()
        if due:
            self._sorted_at = now
            self.order_pending = False
        current, cursor = before or (table.row_keys, table.highlighted_key())
        # Rows change only in a draw: a cursor found elsewhere than it was left was moved.
        if cursor is not None and self._left is not None and cursor != self._left:
            self.holding, self._moved_at = True, now
        free, self._free_order = self._free_order and due, self._free_order and not due
        rank = ranks.get(cursor) if cursor is not None else None
        # Only a row the trader chose holds the cursor gone: the first row, highlighted by
        # default, gives way to the best live one.
        vanished = self.holding and rank is not None and rank.gone is not None and not free
        held = self.holding and not free and now - self._moved_at < self.HOLD_SECONDS
        pinned = cursor if vanished or held else None
        order = arrange(ranks, self.sort_by, current, pinned, resort=due)
        table.order_rows(order)
        if cursor is not None and cursor in table.rows:
            index = table.get_row_index(cursor)
            if not self.holding and not free and not vanished:
                index = 0  # nothing chosen yet: the best row is the highlighted one
            if table.cursor_row != index:  # the cursor goes with the row it is on
                table.move_cursor(row=index, animate=False, scroll=free or self.holding)
        self._left = table.highlighted_key()

    def found(self, keys: Iterable[str]) -> list[str]:
        """The keys among `keys` that pass the table's find filter (`F`): the counts count
        what the trader can see."""
        table = self.query_one(PatchTable)
        if not table.query_text:
            return list(keys)
        return [key for key in keys if table.has_row(key) and table.passes(key)]

    def on_patch_table_text_filtered(self, message: PatchTable.TextFiltered) -> None:
        message.stop()
        self.resort()  # the counts follow the find filter

    def action_next_sort(self) -> None:
        self.sort_by = next_sort_key(self.sort_by)
        words = SORT_WORDS[self.sort_by].replace("profit", self.RANK_WORD)
        self.notify(f"Sorted by {words}", timeout=2)
        self.resort()

    def resort(self) -> None:
        """Draw again in a new order the trader asked for (the highlighted row goes with it)."""
        self._sorted_at = -math.inf
        self._free_order = True
        self.redraw()

    # ------------------------------------------------------------------ suspects

    @property
    def suspect_profit(self) -> float:
        settings = getattr(self.app, "settings", None)
        return float(getattr(settings, "suspect_profit", DEFAULT_SUSPECT_PROFIT))

    def action_toggle_suspects(self) -> None:
        self.hide_suspects = not self.hide_suspects
        shown = "hidden" if self.hide_suspects else "shown"
        self.notify(f"Suspect rows ({SUSPECT_MARK}) {shown}", timeout=2)
        self.resort()

    def order_words(self) -> Text:
        """The summary's tail: the sort key (the suspects hidden are counted once, by the
        summary's own numbers; shown, each carries its mark)."""
        key = self.RANK_WORD if self.sort_by == "profit" else self.sort_by
        return Text(f" · by {key}", "dim")

    # ------------------------------------------------------------------ export

    def export_records(self) -> list[dict[str, object]]:
        """The rows the board holds, as data (each board gives its own); here, its cells."""
        table = self.query_one(PatchTable)
        keys = [str(key.value) for key in table.columns]
        labels = [column.label.plain for column in table.columns.values()]
        rows = [[table.cell_text(row, key) for key in keys] for row in table.row_keys]
        return cell_records(labels, rows)

    def action_export(self, fmt: str) -> None:
        export_and_say(self, self.heading, self.export_records(), fmt)

"""Bets (`7`): the bet log, one row per leg, settled from the final score when the match ends.

Open bets are checked every `SETTLE_EVERY` seconds (one GET /events/{id} per event); a bet whose
match has ended is settled from the score (main markets) and each leg gets the sharp book's
closing price for its closing-line value. Other markets the trader settles by hand.
"""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from oddstui.api.errors import OddsApiError
from oddstui.betlog.bets import Bet
from oddstui.betlog.store import BetLogError
from oddstui.book.settlement import RESULTS_BY_WORD
from oddstui.tui.bets.bet_rows import BET_COLUMNS, export_records, leg_cells, row_key, summary
from oddstui.tui.bets.settling import settle_open, settled_by_hand
from oddstui.tui.desk.state import ChangeSet
from oddstui.tui.kit.board_screen import BoardScreen
from oddstui.tui.kit.export_action import export_and_say, export_bindings
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.prices import odds_format
from oddstui.tui.text import clean

#: Seconds between two checks of the open bets' matches.
SETTLE_EVERY = 3.0


class BetsScreen(BoardScreen):
    """The bets taken at the stake ticket, with their results, P&L and closing-line value.

    | key | action |
    |---|---|
    | `W` / `L` / `V` | settle the highlighted leg by hand: won, lost, void |
    | `U` | reopen a leg settled by hand |
    | `enter` | open the bet's event |
    | `e` / `E` / `ctrl+e` | export the bets to CSV / JSON / Parquet in the working folder |
    """

    heading = "Bets"
    AUTO_FOCUS = "#bets"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("W", "settle('won')", "Won", id="bets-won"),
        Binding("L", "settle('lost')", "Lost", id="bets-lost"),
        Binding("V", "settle('void')", "Void", id="bets-void"),
        Binding("U", "settle('open')", "Reopen", show=False, id="bets-reopen"),
        *export_bindings("bets-export"),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: The bets as last read from the log, newest first.
        self.bets: list[Bet] = []
        #: Row key -> (bet, leg index).
        self.rows: dict[str, tuple[Bet, int]] = {}
        #: The last problem with the log or the service (one line), or "".
        self.problem = ""
        self._settling = False

    def compose_body(self) -> ComposeResult:
        yield Static("", classes="summary")
        yield Static("", id="bets-problem")
        table = PatchTable(id="bets")
        table.set_columns(BET_COLUMNS)
        yield table

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(SETTLE_EVERY, self.settle_soon, name="settle bets")
        self.settle_soon()

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        self.redraw()

    # ------------------------------------------------------------------ drawing

    def redraw(self) -> None:
        self.load()
        self.show()

    def patch(self, changes: ChangeSet) -> None:
        """Bets do not move with the feed: they change when settled or logged."""

    def load(self) -> None:
        log = self.app.bet_log
        try:
            self.bets = log.bets()
        except BetLogError as error:
            self.say(str(error))
            return
        if log.warning:
            self.say(log.warning)
            log.warning = None

    def show(self) -> None:
        table = self.query_one("#bets", PatchTable)
        fmt = odds_format(self.app)
        self.rows = {}
        for bet in self.bets:
            for index in range(len(bet.legs)):
                key = row_key(bet, index)
                self.rows[key] = (bet, index)
                table.sync_row(key, leg_cells(bet, index, fmt))
        table.keep_rows(self.rows)
        table.order_rows(list(self.rows))
        self.query_one(".summary", Static).update(summary(self.bets))
        problem = self.query_one("#bets-problem", Static)
        problem.update(Text(f"⚠ {self.problem}") if self.problem else "")
        problem.display = bool(self.problem)

    def say(self, line: str) -> None:
        """One line on the screen (and a toast) about the log or the service."""
        line = clean(line)
        if line != self.problem:
            self.problem = line
            self.notify(line, severity="warning", timeout=8, markup=False)

    # ------------------------------------------------------------------ settling

    def settle_soon(self) -> None:
        if self._settling:
            return  # a slow service: the check under way finishes first, none is cancelled
        self.load()
        if any(bet.status == "open" and bet.id for bet in self.bets):
            self._settling = True
            self.run_worker(
                self._settle(), group="bets-settle", description="settle bets",
                exit_on_error=False,
            )  # fmt: skip

    async def _settle(self) -> None:
        hub = self.hub
        try:
            changed = await settle_open(hub.api, self.bets, time.time())
        except OddsApiError as error:
            self.say(f"Could not check the open bets: {error}")
            return
        finally:
            self._settling = False
            hub.note_budget()
        for bet in changed:
            try:
                self.app.bet_log.update(bet)
            except BetLogError as error:
                self.say(str(error))
                return
            if bet.status == "settled" and bet.profit is not None:
                self.notify(
                    f"Bet #{bet.id} settled ({clean(bet.event_name)} {bet.final_score}): "
                    f"P&L {bet.profit:+.2f}",
                    timeout=6,
                    markup=False,
                )
        if changed:
            self.redraw()

    def action_settle(self, word: str) -> None:
        chosen = self._highlighted()
        if chosen is None:
            self.notify("Highlight a bet's leg to settle it.", severity="warning")
            return
        bet, index = chosen
        if not bet.id:
            self.notify("This bet is not in the log yet (it is locked).", severity="warning")
            return
        if word == "open" and bet.legs[index].settled_by != "hand":
            self.notify("Only a leg settled by hand can be reopened.", severity="warning")
            return
        result = None if word == "open" else RESULTS_BY_WORD[word]
        try:
            self.app.bet_log.update(settled_by_hand(bet, index, result, time.time()))
        except BetLogError as error:
            self.say(str(error))
            return
        self.redraw()

    def _highlighted(self) -> tuple[Bet, int] | None:
        key = self.query_one("#bets", PatchTable).highlighted_key()
        return None if key is None else self.rows.get(key)

    # ------------------------------------------------------------------ more

    def selected_event_id(self) -> int | None:
        chosen = self._highlighted()
        return None if chosen is None else chosen[0].event_id

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        event_id = self.selected_event_id()
        if event_id is not None:
            self.open_event(event_id)

    def action_export(self, fmt: str) -> None:
        export_and_say(self, self.heading, export_records(self.bets), fmt, noun="legs")

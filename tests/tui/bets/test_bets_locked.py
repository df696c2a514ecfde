"""A bet log another program holds locked, against the real service: the ticket's `enter` says
so in one line, the bet waits in the pending file, and it is in the log once the lock goes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from oddstui.betlog.store import BetLog
from oddstui.tui.bets.bets_screen import BetsScreen
from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, wait_for


async def test_a_locked_log_loses_no_bet(fast_service: Service, home: Path) -> None:
    path = home / "bets.sqlite"
    BetLog(path).bets()  # the log exists
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program holds it
    app = build_app(fast_service.base_url, DEMO_KEY, start_mode="arbitrage")
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, ArbitrageScreen)
            table = screen.query_one(PatchTable)

            def live_rows() -> list[str]:
                rows = screen.arbs.rows
                return [k for k in table.row_keys if k in rows and rows[k].vanished_at is None]

            await wait_for(live_rows, pilot, timeout=30)
            key = live_rows()[0]
            table.move_cursor(row=table.get_row_index(key), animate=False)
            assert table.highlighted_key() == key
            event_id = screen.arbs.rows[key].event_id
            screen.open_ticket()
            await wait_for(lambda: isinstance(app.screen, StakeTicketModal), pilot)
            ticket = app.screen
            assert isinstance(ticket, StakeTicketModal)
            await wait_for(lambda: ticket.plan is not None, pilot)  # the stakes shown
            await pilot.press("enter")
            pending = home / "bets.pending.jsonl"
            await wait_for(pending.exists, pilot)
            [kept] = [json.loads(line) for line in pending.read_text().splitlines()]
            assert kept["event_id"] == event_id and len(kept["legs"]) >= 2

            def said_locked() -> list[str]:
                messages = [str(n.message) for n in app._notifications]
                return [m for m in messages if "locked" in m]

            await wait_for(said_locked, pilot, timeout=30)
            [line] = said_locked()
            assert "\n" not in line and "bets.pending.jsonl" in line

            holder.execute("ROLLBACK")  # the other program lets go
            await pilot.press("7")
            bets = app.screen
            assert isinstance(bets, BetsScreen)
            await wait_for(lambda: bool(bets.bets) and bets.bets[0].id == 1, pilot)
            assert bets.bets[0].event_id == event_id
            assert not pending.exists()
            rows = bets.query_one("#bets", PatchTable)
            await wait_for(lambda: rows.row_count == len(kept["legs"]), pilot)
    finally:
        if holder.in_transaction:
            holder.execute("ROLLBACK")
        holder.close()

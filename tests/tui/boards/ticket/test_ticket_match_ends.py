"""A match ends in the real built-in service while the desk shows an arbitrage on it (issue 31):
the row leaves the board in the change set that says so, the ticket open on it says the match
ended and will not log, and GET /odds of the event quotes nothing any more.

The service runs embedded (same process, its own thread), so the test ends the match at the
moment it chooses with `World.end_match`, on the world's own thread."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from oddstui.book.state import finished
from oddstui.service.assembly import Options
from oddstui.service.embedded import EmbeddedService, start_embedded
from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal
from oddstui.tui.desk.state import ChangeSet
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, wait_for


@pytest.fixture(scope="module")
def world() -> Iterator[EmbeddedService]:
    service = start_embedded(Options(seed=11, speed=20.0, updates_per_second=200.0))
    yield service
    service.stop()


def live_row(screen: ArbitrageScreen, but: set[int]) -> str | None:
    """A shown arbitrage on a live match the board knows (not one of `but`)."""
    events = screen.hub.board.events
    for key in screen.query_one(PatchTable).row_keys:
        row = screen.arbs.rows.get(key)
        event = None if row is None else events.get(row.event_id)
        if row and event and event.status == "live" and not row.vanished_at:
            if row.event_id not in but:
                return key
    return None


def end_match(world: EmbeddedService, event_id: int) -> bool:
    """End the match now; False when it had ended already (at 20 times the speed, a busy
    machine's pause can be minutes of play: the desk's view of it can be behind)."""
    game = world.context.world
    return bool(world.call(lambda: game.end_match(event_id)))


@pytest.mark.slow  # waits on the live world for arbitrages on live matches (~50 s)
@pytest.mark.timeout(180)
async def test_a_match_that_ends_leaves_the_board_in_one_flush_and_its_ticket_will_not_log(
    world: EmbeddedService, home: Path
) -> None:
    app = build_app(world.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(160, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ArbitrageScreen)
        screen.hide_suspects = False
        table = screen.query_one(PatchTable)
        await wait_for(lambda: live_row(screen, set()) is not None, pilot, timeout=60)

        # 1. The board on top: the change set that brings the end drops the row.
        key = live_row(screen, set())
        assert key is not None
        first = screen.arbs.rows[key].event_id
        after_patch: list[tuple[bool, bool]] = []  # (ended on the board, a row still shown)
        patch = screen.patch

        def watched(changes: ChangeSet) -> None:
            patch(changes)
            touched = first in changes.events or any(k[0] == first for k in changes.prices)
            if touched:
                event = screen.hub.board.events.get(first)
                shown = any(k.startswith(f"{first}|") for k in table.row_keys)
                after_patch.append((event is not None and finished(event.status), shown))

        screen.patch = watched  # type: ignore[method-assign]
        ended_before: set[int] = set()
        while not end_match(world, first):  # it ended on its own: the desk is told; another
            ended_before.add(first)
            await wait_for(lambda: live_row(screen, ended_before) is not None, pilot, timeout=60)
            key = live_row(screen, ended_before)
            assert key is not None and len(ended_before) < 3, ended_before
            first = screen.arbs.rows[key].event_id
            after_patch.clear()
        await wait_for(lambda: any(ended for ended, _ in after_patch), pilot, timeout=20)
        assert [shown for ended, shown in after_patch if ended] == [False] * sum(
            1 for ended, _ in after_patch if ended
        )
        assert not any(row.event_id == first for row in screen.arbs.rows.values())

        # 2. A ticket open on another live arbitrage when its match ends: it says so, no log.
        await wait_for(lambda: live_row(screen, {first, *ended_before}) is not None, pilot,
                       timeout=60)
        key = live_row(screen, {first, *ended_before})
        assert key is not None
        second = screen.arbs.rows[key].event_id
        screen.open_ticket(key)
        await wait_for(lambda: isinstance(app.screen, StakeTicketModal), pilot)
        ticket = app.screen
        assert isinstance(ticket, StakeTicketModal)
        assert ticket.ended == "" and "not tradable" not in ticket.shown_title
        end_match(world, second)  # or it ended on its own since: the ticket is told either way
        await wait_for(lambda: ticket.ended == "settled", pilot, timeout=20)
        assert ticket.shown_title.endswith("match settled: not tradable")
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert app.screen is ticket and app.bet_log.bets() == []
        await pilot.press("escape")
        await wait_for(lambda: app.screen is screen, pilot)
        assert app.bet_log.bets() == []
        await wait_for(lambda: not any(k.startswith(f"{second}|") for k in table.row_keys), pilot)

        # 3. The service quotes neither match any more; their closing prices stay historical.
        async with httpx.AsyncClient(base_url=world.base_url) as http:
            for event_id in (first, second):
                params = {"apiKey": DEMO_KEY, "eventId": event_id, "bookmakers": "Bet365,SingBet"}
                answer = (await http.get("/odds", params=params)).json()
                assert answer["status"] == "settled" and answer["bookmakers"] == {}
                closing = (await http.get("/historical/odds", params=params)).json()
                assert closing["status"] == "settled" and closing["bookmakers"]

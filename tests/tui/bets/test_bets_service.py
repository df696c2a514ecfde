"""A bet from the stake ticket, against the real built-in service: logged at `enter`, shown on
the Bets screen, settled from the final score when its match ends, with P&L and CLV."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from oddstui.api.rest import ApiClient
from oddstui.betlog.bets import SETTLED
from oddstui.book.fair import fair_prices
from oddstui.book.fair_policy import FAIR_METHOD, SHARP_BOOKS
from oddstui.book.settlement import settles_by_score
from oddstui.tui.bets.bets_screen import BetsScreen
from oddstui.tui.boards.arbitrage.arb_screen import ArbitrageScreen
from oddstui.tui.boards.ticket.live_legs import gone_legs
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal
from oddstui.tui.desk.state import LIVE
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.launch import build_app
from tests.tui.conftest import DEMO_KEY, Service, start_service, wait_for

pytestmark = pytest.mark.slow  # handed out first (tests/conftest.py)


@pytest.fixture(scope="module")
def quick_world() -> Iterator[Service]:
    """Matches run 180 times as fast: a live one ends within a minute or so."""
    service = start_service("--speed", "180", "--seed", "7", "--updates-per-second", "100")
    yield service
    service.stop()


def pick_arbitrage(screen: ArbitrageScreen) -> str | None:
    """A live arbitrage on a market settled from the score, ML first (its line is always in the
    close, so its CLV is known), then the match furthest on."""
    board = screen.hub.board
    best: tuple[Any, ...] | None = None
    table = screen.query_one(PatchTable)
    for key in table.row_keys:
        row = screen.arbs.rows[key]
        event = board.events.get(row.event_id)
        if row.vanished_at is not None or event is None or event.status != LIVE:
            continue
        if not settles_by_score(row.market) or event.clock is None:
            continue
        rank = (row.market == "ML", event.clock.minute, key)
        if best is None or rank > best:
            best = rank
    return None if best is None else best[2]


@pytest.mark.timeout(400)
async def test_a_ticket_bet_is_logged_settled_with_pnl_and_clv(quick_world: Service) -> None:
    app = build_app(quick_world.base_url, DEMO_KEY, start_mode="arbitrage")
    async with app.run_test(size=(160, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, ArbitrageScreen)
        screen.hide_suspects = False
        chosen: list[str] = []

        def an_arbitrage_to_take() -> bool:
            if chosen and chosen[0] not in screen.arbs.rows:
                chosen.clear()  # it vanished from the board: choose again
            key = pick_arbitrage(screen)
            if key is not None and screen.arbs.rows[key].market == "ML":
                chosen[:] = [key]
            elif key is not None and not chosen:
                chosen[:] = [key]
            return bool(chosen) and screen.arbs.rows[chosen[0]].market == "ML"

        table = screen.query_one(PatchTable)

        async def take_one() -> tuple[Any, StakeTicketModal] | None:
            """Open the chosen arbitrage's ticket and log it; None when its match ended first
            (180 times as fast, a busy machine's pause is minutes of play): the ticket then
            rightly refuses, and another is chosen."""
            try:
                await wait_for(an_arbitrage_to_take, pilot, timeout=30)
            except AssertionError:
                an_arbitrage_to_take()  # the board as it is now (it may have moved since)
                assert chosen, "no live arbitrage on a market settled by score"
            key = chosen[0]
            row = screen.arbs.rows[key]
            table.move_cursor(row=table.get_row_index(key), animate=False)
            assert table.highlighted_key() == key  # no draw in between: the ticket is this row's
            screen.open_ticket()
            await wait_for(lambda: isinstance(app.screen, StakeTicketModal), pilot)
            ticket = app.screen
            assert isinstance(ticket, StakeTicketModal)
            await wait_for(lambda: ticket.plan is not None or bool(ticket.ended), pilot)
            for _ in range(5):
                # A leg may go unquoted between the look and the key on a busy machine: the
                # ticket then asks for enter again (once for each set of legs gone), as it
                # asks a trader, who confirms the bet as shown.
                await pilot.press("enter")
                await wait_for(lambda: bool(app.bet_log.bets()) or bool(ticket.ended)
                               or bool(gone_legs(ticket.legs)), pilot)
                if app.bet_log.bets() or ticket.ended:
                    break
            if app.bet_log.bets():
                return row, ticket
            await pilot.press("escape")
            await wait_for(lambda: app.screen is screen, pilot)
            chosen.clear()
            return None

        for _ in range(3):
            if taken := await take_one():
                break
        else:
            raise AssertionError("three times the chosen match ended before its bet was logged")
        row, ticket = taken
        [bet] = app.bet_log.bets()
        assert bet.event_id == row.event_id and bet.board == "Arbitrage"
        assert [leg.market for leg in bet.legs] == [row.market] * len(row.legs)
        # The legs and stakes the ticket showed when `enter` was pressed (it stops refreshing then).
        assert ticket.plan is not None
        assert [(leg.bookmaker, leg.side) for leg in bet.legs] == [
            (leg.bookmaker, leg.side) for leg in ticket.legs
        ]
        assert [leg.stake for leg in bet.legs] == list(ticket.plan.stakes)
        assert 0 < sum(leg.stake for leg in bet.legs) == pytest.approx(ticket.plan.total)

        await pilot.press("7")
        bets = app.screen
        assert isinstance(bets, BetsScreen)
        bets_table = bets.query_one("#bets", PatchTable)
        await wait_for(lambda: bets_table.row_count == len(bet.legs), pilot)
        first = f"{bet.id}|0"
        assert bets_table.cell_text(first, "bet") == f"#{bet.id}"
        # Open, unless its match (chosen near its end) has ended already.
        words = ("open", "won", "lost", "void", "half won", "half lost")
        assert bets_table.cell_text(first, "result") in words

        # The match ends: the bet settles from the final score, on its own.
        def settled() -> bool:
            return bool(bets.bets) and bets.bets[0].status == SETTLED

        await wait_for(settled, pilot, timeout=330)
        done = bets.bets[0]
        event = await app.hub.api.event(bet.event_id)
        assert event.status in ("settled", "cancelled")
        assert done.final_score == f"{event.scores.home}-{event.scores.away}"
        assert done.profit is not None
        expected = 0.0
        for leg in done.legs:
            assert leg.result is not None and leg.settled_by == "score"
            # A won share pays its winnings net of an exchange's commission; a lost share is lost.
            winnings = (leg.price - 1) * (1 - leg.commission)
            won, lost = max(leg.result, 0.0), max(-leg.result, 0.0)
            expected += leg.stake * (won * winnings - lost)
        assert done.profit == pytest.approx(expected)
        if done.legs[0].market == "ML" and event.status == "settled":
            regulation = event.scores.periods.get("ft", (event.scores.home, event.scores.away))
            home, away = regulation
            outcome = "home" if home > away else "away" if away > home else "draw"
            for leg in done.legs:
                assert leg.result == (1.0 if leg.side == outcome else -1.0) or (
                    outcome == "draw" and "draw" not in [x.side for x in done.legs]
                )
        await wait_for(lambda: bets_table.cell_text(first, "pnl") != "", pilot)
        assert bets_table.cell_text(first, "result") in words[1:]
        pnl_cells = [bets_table.cell_text(f"{bet.id}|{i}", "pnl") for i in range(len(bet.legs))]
        assert sum(float(cell) for cell in pnl_cells) == pytest.approx(done.profit, abs=0.02)
        assert f"P&L {done.profit:+.2f}" in str(bets.query_one(".summary").render())

        # CLV against the sharp book's closing price, de-vigged: as the service's close says.
        api = ApiClient(quick_world.base_url, DEMO_KEY)
        try:
            close = await api.historical_odds(bet.event_id, SHARP_BOOKS)
        finally:
            await api.aclose()
        for index, leg in enumerate(done.legs):
            prices = None
            for book in SHARP_BOOKS:
                for quote in close.bookmakers.get(book, ()):
                    if quote.name == leg.market:
                        for line in quote.lines:
                            if line.hdp == leg.hdp and leg.side in line.prices:
                                prices = prices or line.prices
            cell = bets_table.cell_text(f"{bet.id}|{index}", "clv")
            if prices is None:
                assert cell == "no quote" and leg.clv is None
                continue
            # The desk's one fair price: the policy's method over every side of the close.
            fair = fair_prices(list(prices.values()), FAIR_METHOD)[list(prices).index(leg.side)]
            assert leg.clv == pytest.approx(leg.price / fair - 1)
            assert cell == f"{(leg.price / fair - 1) * 100:+.1f}%"
        if done.legs[0].market == "ML":
            assert all(leg.clv is not None for leg in done.legs), "ML is always in the close"

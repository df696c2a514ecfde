"""The arbitrage board's stake ticket: opened on one row by its key, kept live from the feed's
book, with every leg's limit known before it opens (issue 31).

`ArbTickets` holds the board and does the ticket's reading for it: the legs as the book quotes
them now, the match's end, and, for a line the book does not hold, the bookmakers' limits from
GET /odds (one request, before the ticket shows, so no stake is ever shown uncapped).
"""

from __future__ import annotations

from dataclasses import replace

from oddstui.api.errors import OddsApiError
from oddstui.book.exchange import net_back
from oddstui.book.oddsbook import OddsBook
from oddstui.book.state import finished
from oddstui.tui.boards.arbitrage.arb_cells import ticket_legs
from oddstui.tui.boards.arbitrage.arb_limits import line_limits, with_limits
from oddstui.tui.boards.arbitrage.arb_quotes import LegQuote, quoted_now, read_leg_quotes
from oddstui.tui.boards.arbitrage.arb_rows import ArbRow, ArbRows
from oddstui.tui.boards.rest_board import RestBoardScreen
from oddstui.tui.boards.ticket.bet_slip import BetContext
from oddstui.tui.boards.ticket.live_legs import TicketRead
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal
from oddstui.tui.boards.ticket.stakes import StakePlan, TicketLeg
from oddstui.tui.kit.prices import odds_format
from oddstui.tui.kit.service_clock import book_clock, service_time
from oddstui.tui.text import clean

Limits = dict[str, float | None]
"""Bookmaker -> its `max` on the ticket's line, as GET /odds gave it."""


class ArbTickets:
    """Opens the board's tickets and reads their legs (see the module's docstring)."""

    def __init__(self, board: RestBoardScreen, rows: ArbRows) -> None:
        self.board = board
        self.rows = rows

    def open(self, row: ArbRow) -> None:
        """The ticket for `row`; when the book lacks a leg's line, its limits are read first."""
        board = self.board
        held = board.hub.read(lambda book: quoted_now(book, row)) or ()
        if held and all(quote.held for quote in held):
            self._push(row, {})
            return
        board.run_worker(
            self._open_with_limits(row),
            group="ticket-limits",
            exclusive=True,
            description="read the bookmakers' limits for the ticket",
            exit_on_error=False,
        )

    async def _open_with_limits(self, row: ArbRow) -> None:
        board = self.board
        limits: Limits = {}
        books = list(dict.fromkeys(leg.bookmaker for leg in row.legs))
        try:
            record = await board.hub.api.odds(row.event_id, books)
        except OddsApiError as error:
            board.notify(
                f"Bookmakers' limits unknown ({clean(error)}): check them before staking.",
                severity="warning",
                markup=False,
            )
        else:
            limits = line_limits(record, row.market, (row.hdp, row.label))
        finally:
            board.hub.note_budget()
        if board.is_attached:
            self._push(row, limits)

    def _push(self, row: ArbRow, limits: Limits) -> None:
        board = self.board
        event = board.hub.board.events.get(row.event_id)
        title = event.title if event else f"{row.home} v {row.away}"
        title = f"{title} · {row.line_text}"  # the ticket adds the profit of its legs now
        key, last = row.key, [row]

        def legs_now() -> TicketRead:
            current = self.rows.rows.get(key)
            if current is not None and current.vanished_at is None:
                last[0] = current  # the service's answers go on under the ticket
            legs = with_limits(self.held_legs(last[0]), limits)
            return TicketRead(tuple(legs), self.ended_status(row.event_id))

        modal = StakeTicketModal(
            title,
            legs_now().legs,
            refresh_legs=legs_now,
            ticked=board.hub.ticked,
            odds_format=odds_format(board.app),
            bet=self.bet_context(row),
        )
        board.app.push_screen(modal, self._closed)

    def ended_status(self, event_id: int) -> str:
        """`settled` or `cancelled` once the match has ended (the board's word, else the
        book's), else ""."""
        hub = self.board.hub
        event = hub.board.events.get(event_id)
        if event is not None:
            return event.status if finished(event.status) else ""

        def read(book: OddsBook) -> str:
            state = book.event(event_id)
            return "" if state is None else state.status

        status = hub.read(read) or ""
        return status if finished(status) else ""

    def bet_context(self, row: ArbRow) -> BetContext:
        """What a bet taken at the ticket is on, for the bet log."""
        event = self.board.hub.board.events.get(row.event_id)
        name = event.title if event else f"{row.home} v {row.away}"
        sport = event.sport_slug if event else row.sport
        league = event.league_name if event else row.league
        return BetContext(
            self.board.heading,
            row.event_id,
            name,
            row.market,
            row.hdp,
            row.label or "",
            sport,
            league,
        )

    def ticket_legs(self, row: ArbRow) -> list[TicketLeg]:
        """The row's legs as the ticket shows them, with ages and moves from the book."""
        hub = self.board.hub
        event = hub.board.events.get(row.event_id)
        now, clock = hub.now(), book_clock(hub)()

        def read(book: OddsBook) -> tuple[float, tuple[LegQuote, ...]]:
            service_now = service_time(book, clock, now)
            return service_now, read_leg_quotes(book, row, service_now, clock)

        found = hub.read(read)
        if found is None:
            found = now, read_leg_quotes(None, row, now, clock)
        service_now, quotes = found
        return ticket_legs(quotes, row, event, service_now)

    def held_legs(self, row: ArbRow) -> list[TicketLeg]:
        """The row's legs as their bookmakers quote them in the feed's book now (the board is
        not redrawn under the ticket, the book is kept): a leg whose bookmaker no longer quotes
        it is gone; a leg the book never held keeps the row's price while the row is live."""
        board = self.board
        now = board.hub.read(lambda book: quoted_now(book, row))
        legs = self.ticket_legs(row)
        if now is None:
            return legs
        on_board = row.vanished_at is None and row.key in self.rows.rows
        held = []
        for leg, quote in zip(legs, now, strict=True):
            if quote.price is not None:
                price = net_back(quote.price, leg.commission)
                held.append(replace(leg, price=price, limit=quote.limit))
            elif quote.held or not on_board:
                held.append(replace(leg, age=None, previous=None, moved_ago=None, gone=True))
            else:
                held.append(leg)
        return held

    def _closed(self, plan: StakePlan | None) -> None:
        if plan is not None:
            stakes = " / ".join(f"{stake:.2f}" for stake in plan.stakes)
            self.board.notify(f"Stakes {stakes}: guaranteed {plan.guaranteed:+.2f}", timeout=5)

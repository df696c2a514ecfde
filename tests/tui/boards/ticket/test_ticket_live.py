"""The live ticket (issue 31): under an open ticket a leg's price moves, its bookmaker switches
and it is withdrawn; the title follows the legs shown and each change is marked on its leg. A
gone leg logs only once confirmed, a match that ended never logs, and no key sequence closes
the ticket without logging or saying it did not (`s` 10000 → Tab → enter included).

The ticket is driven through its own `follow` with what a board reads (`TicketRead`); the
board's side of it runs against the real service in test_ticket_match_ends.py."""

from __future__ import annotations

from dataclasses import replace

from textual.app import App

from oddstui.book.arbitrage import profit_pct
from oddstui.tui.app import style_sheets
from oddstui.tui.boards.ticket.bet_slip import BetContext
from oddstui.tui.boards.ticket.live_legs import (
    GONE_MARK,
    MOVED_MARK,
    SWITCHED_MARK,
    TicketRead,
    follow,
    leg_mark,
    title_profit,
)
from oddstui.tui.boards.ticket.stake_modal import StakeTicketModal, TicketPanel
from oddstui.tui.boards.ticket.stakes import TicketLeg
from oddstui.tui.messages import BetTaken
from oddstui.tui.themes import ODDS_VARIABLES_DARK, THEMES
from tests.tui.screen_text import screen_text

LEGS = (
    TicketLeg("home", "Pinnacle", 2.2, "ML Home", 5.0, limit=400.0),
    TicketLeg("away", "Bet365", 2.1, "ML Away", 8.0),
)
CONTEXT = BetContext("Arbitrage", 42, "Home v Away", "ML", None)


class LoggingApp(App[None]):
    """The ticket alone, with the bets it hands the app kept (the desk logs them)."""

    CSS_PATH = style_sheets()  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.taken: list[BetTaken] = []
        self.notes: list[str] = []
        self.ticket = StakeTicketModal("Home v Away · ML", LEGS, bet=CONTEXT)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(ODDS_VARIABLES_DARK)

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        self.theme = "oddstui-dark"
        self.push_screen(self.ticket)

    def on_bet_taken(self, message: BetTaken) -> None:
        self.taken.append(message)

    def notify(self, message: str, **kwargs: object) -> None:  # type: ignore[override]
        self.notes.append(message)
        super().notify(message, **kwargs)  # type: ignore[arg-type]


def test_marks_and_title_follow_each_change() -> None:
    opened = LEGS[0]
    assert leg_mark(opened, opened) == ""
    assert leg_mark(opened, replace(opened, price=2.3)) == MOVED_MARK
    assert leg_mark(opened, replace(opened, bookmaker="FanDuel", price=1.4)) == SWITCHED_MARK
    assert leg_mark(opened, replace(opened, gone=True)) == GONE_MARK
    moved = [replace(LEGS[0], price=1.4), LEGS[1]]
    assert title_profit(moved) == f"{profit_pct([1.4, 2.1]):+.2f}%"
    assert title_profit(moved).startswith("-")  # no longer an arbitrage: the title says so
    assert title_profit([LEGS[0], replace(LEGS[1], gone=True)]) == "leg 2 gone"
    assert title_profit(list(LEGS), "settled") == "match settled: not tradable"
    # A line the board no longer knows side for side: every leg is gone, none invented.
    followed = follow(LEGS, [LEGS[0]])
    assert len(followed) == len(LEGS) and all(leg.gone for leg in followed)
    assert follow(LEGS, None)[1].price == LEGS[1].price


async def test_a_price_move_a_switch_and_a_withdrawal_under_an_open_ticket() -> None:
    app = LoggingApp()
    async with app.run_test(size=(100, 40)) as pilot:
        ticket = app.ticket
        await pilot.pause()
        assert ticket.shown_title.endswith(f"{profit_pct([2.2, 2.1]):+.2f}%")

        moved = (replace(LEGS[0], price=2.3), LEGS[1])
        ticket.follow(TicketRead(moved))
        await pilot.pause()
        text = screen_text(app)
        assert f"{profit_pct([2.3, 2.1]):+.2f}%" in text  # the title: the legs shown now
        assert f"{MOVED_MARK} ML Home" in text and "leg 1: 2.3 now, was 2.2" in text

        switched = (replace(LEGS[0], bookmaker="FanDuel", price=1.4, limit=None), LEGS[1])
        ticket.follow(TicketRead(switched))
        await pilot.pause()
        text = screen_text(app)
        assert f"{profit_pct([1.4, 2.1]):+.2f}%" in text
        assert f"{SWITCHED_MARK} ML Home" in text
        assert "leg 1: FanDuel now, was Pinnacle at 2.2" in text

        withdrawn = (switched[0], replace(LEGS[1], gone=True))
        ticket.follow(TicketRead(withdrawn))
        await pilot.pause()
        text = screen_text(app)
        assert "leg 2 gone" in text and f"{GONE_MARK} ML Away" in text
        assert "leg 2: Bet365 no longer quotes it" in text

        # A gone leg: the first enter says why it did not log, the second logs as shown.
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is ticket and not app.taken
        assert any("Not logged yet: leg 2 (Bet365)" in note for note in app.notes)
        await pilot.press("enter")
        await pilot.pause()
        assert len(app.taken) == 1
        bet = app.taken[0].bet
        assert [leg.bookmaker for leg in bet.legs] == ["FanDuel", "Bet365"]
        assert app.screen is not ticket


async def test_a_match_that_ended_never_logs_and_escape_says_so() -> None:
    app = LoggingApp()
    async with app.run_test(size=(100, 40)) as pilot:
        ticket = app.ticket
        await pilot.pause()
        ticket.follow(TicketRead(LEGS, "settled"))
        await pilot.pause()
        assert "match settled: not tradable" in screen_text(app)
        for _ in range(3):
            await pilot.press("enter")
        await pilot.pause()
        assert app.screen is ticket and not app.taken
        assert any("Not logged: the match is settled" in note for note in app.notes)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not ticket and not app.taken
        assert app.notes[-1] == "Ticket closed: no bet logged."


async def test_stake_tab_enter_keeps_the_ticket_then_enter_logs_it() -> None:
    """The issue's sequence: ticket → `s` 10000 → Tab → enter. The ticket stays, its keys
    work, and the next enter logs the 10,000 (capped by leg 1's limit of 400)."""
    app = LoggingApp()
    async with app.run_test(size=(100, 40)) as pilot:
        ticket = app.ticket
        await pilot.pause()
        await pilot.press("s", *"10000", "tab", "enter")
        await pilot.pause()
        assert app.screen is ticket and not app.taken
        assert isinstance(app.focused, TicketPanel)  # the ticket's own keys work again
        assert ticket.plan is not None and ticket.plan.asked < 10000  # the limit binds
        assert ticket.plan.stakes[0] <= 400.0
        await pilot.press("m")  # a ticket key: cap leg 1
        assert ticket.capped_leg == 0
        await pilot.press("m", "m")  # back to the total stake
        assert ticket.capped_leg is None
        await pilot.press("enter")
        await pilot.pause()
        assert len(app.taken) == 1
        stakes = [leg.stake for leg in app.taken[0].bet.legs]
        assert stakes[0] <= 400.0 and sum(stakes) > 0
        assert app.screen is not ticket

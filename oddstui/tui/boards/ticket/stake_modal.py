"""The stake ticket: stakes per leg of an arbitrage, from a total or one capped leg, rounded."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from oddstui.book.arbitrage import PROFIT_DEFINITION
from oddstui.book.formats import OddsFormat
from oddstui.tui.boards.ticket.bet_slip import BetContext, bet_from_ticket
from oddstui.tui.boards.ticket.live_legs import (
    TicketRead,
    follow,
    gone_legs,
    leg_mark,
    title_profit,
)
from oddstui.tui.boards.ticket.stakes import (
    StakePlan,
    TicketLeg,
    clipboard_text,
    place_first,
    plan_stakes,
)
from oddstui.tui.boards.ticket.ticket_text import (
    changes_text,
    legs_table,
    loss_warning,
    result_text,
)
from oddstui.tui.messages import BetTaken
from oddstui.tui.text import clean, plain


class TicketPanel(Vertical, can_focus=True):
    """The ticket's frame; it holds the focus so that its letter keys work."""


class StakeTicketModal(ModalScreen[StakePlan | None]):
    """Stakes for one arbitrage; `enter` accepts, escape cancels.

    | key | action |
    |---|---|
    | `s` / `r` | type the stake / the rounding step (`enter` there comes back) |
    | `m` | total stake, or cap leg 1, 2, … (a bookmaker's limit) |
    | `u` | round down (never more than the total typed, the default) or round up |
    | `o` | take the rounding offered when the one typed makes the worst case a loss |
    | `c` | copy the stakes to the clipboard (OSC 52: works over SSH) |
    | `enter` | done: log the bet and close (a gone leg: press it again to confirm) |
    | `escape` | cancel: close, saying no bet was logged |

    Letters typed into an input go to the input, so the ticket itself holds the focus and the
    inputs are entered with `s`, `r` or tab.

    The ticket is live (`live_legs`): on every tick it reads its line again through
    `refresh_legs`; the title is the profit of the legs shown now, a leg whose bookmaker,
    price or quote changed since the ticket opened is marked, a gone leg logs only once the
    trader confirms, and a match that ended never logs.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="ticket-cancel"),
        Binding("s", "edit('#stake')", "Stake", id="ticket-edit-stake"),
        Binding("r", "edit('#step')", "Rounding", id="ticket-edit-step"),
        Binding("m", "cycle_mode", "Total/cap", id="ticket-mode"),
        Binding("u", "toggle_round_up", "Round up/down", id="ticket-round-up"),
        Binding("o", "take_safer", "Safer rounding", id="ticket-safer"),
        Binding("c", "copy", "Copy stakes", id="ticket-copy"),
        Binding("enter", "accept", "Done", id="ticket-accept"),
    ]

    def __init__(
        self,
        title: str,
        legs: Sequence[TicketLeg],
        *,
        refresh_legs: Callable[[], TicketRead | None] | None = None,
        ticked: Any = None,
        odds_format: OddsFormat = "decimal",
        stake: str = "100",
        step: str = "1",
        bet: BetContext | None = None,
    ) -> None:
        super().__init__()
        #: What is being staked (event, market and line), plain text; the title adds the profit.
        self.ticket_title = clean(title)
        #: The legs as last read, in the arbitrage's order.
        self.legs = list(legs)
        #: The legs the ticket opened with: every change is marked against them.
        self.opened = list(legs)
        #: The event's status once its match has ended ("settled", "cancelled"), else "".
        self.ended = ""
        #: The gone legs the trader confirmed with a second `enter` (None: not confirmed).
        self._confirmed_gone: tuple[int, ...] | None = None
        #: None for a total stake, else the index of the capped leg.
        self.capped_leg: int | None = None
        #: Round stakes up (the total may grow) instead of down (it never does).
        self.round_up = False
        #: The last plan computed from good input, or None while the input is refused.
        self.plan: StakePlan | None = None
        #: The reason the input is refused, or "".
        self.error = ""
        self._refresh_legs = refresh_legs
        self._ticked = ticked
        self._format = odds_format
        self._stake, self._step = stake, step
        self._handed_back = False
        #: What `enter` records in the bet log (None: nothing recorded).
        self._bet = bet

    def compose(self) -> ComposeResult:
        with TicketPanel(id="ticket"):
            yield Static(plain(self.shown_title, "bold"), id="ticket-title")
            yield Static(Text(PROFIT_DEFINITION, style="dim"), id="ticket-definition")
            with Horizontal(id="ticket-inputs"):
                yield Label("", id="ticket-mode")
                yield Input(self._stake, id="stake", max_length=16)
                yield Label("round down to", classes="ticket-label", id="ticket-rounding")
                yield Input(self._step, id="step", max_length=10)
            yield Static("", id="ticket-error")
            yield Static("", id="ticket-legs")
            yield Static("", id="ticket-changes")
            yield Static("", id="ticket-result")
            yield Static("", id="ticket-warning")
            yield Static("", id="ticket-hint")
            yield Static(
                Text(
                    "s stake · r step · u up/down · o safer · m cap · c copy · enter done · esc",
                    style="dim",
                ),
                id="ticket-keys",
            )

    def on_mount(self) -> None:
        if self._ticked is not None:
            self._ticked.subscribe(self, self._on_tick)
        self.query_one(TicketPanel).focus()
        self.recompute()

    # ------------------------------------------------------------------ computing

    @property
    def shown_title(self) -> str:
        """The event, market and line, and the profit of the legs shown now."""
        return f"{self.ticket_title} · {title_profit(self.legs, self.ended)}"

    @property
    def prices(self) -> list[float]:
        return [leg.price for leg in self.legs]

    def recompute(self) -> None:
        stake_text = self.query_one("#stake", Input).value
        step_text = self.query_one("#step", Input).value
        try:
            plan = plan_stakes(
                self.prices,
                stake_text,
                step_text,
                self.capped_leg,
                round_up=self.round_up,
                limits=[leg.limit for leg in self.legs],
            )
        except ValueError as error:
            self.error = str(error)
            self.plan = None
        else:
            self.error = ""
            self.plan = plan
        self._show()

    def _show(self) -> None:
        mode = (
            "total stake"
            if self.capped_leg is None
            else f"cap leg {self.capped_leg + 1} ({clean(self.legs[self.capped_leg].bookmaker)})"
        )
        self.query_one("#ticket-mode", Label).update(Text(mode, style="bold"))
        rounding = "round up to" if self.round_up else "round down to"
        self.query_one("#ticket-rounding", Label).update(rounding)
        error = self.query_one("#ticket-error", Static)
        error.update(Text(f"✗ {self.error}" if self.error else ""))
        error.set_class(bool(self.error), "-error")
        for widget_id in ("#stake", "#step"):
            self.query_one(widget_id, Input).set_class(bool(self.error), "-invalid")
        self.query_one("#ticket-title", Static).update(plain(self.shown_title, "bold"))
        marks = [leg_mark(opened, now) for opened, now in zip(self.opened, self.legs, strict=True)]
        self.query_one("#ticket-legs", Static).update(
            legs_table(self.legs, self.plan, self._format, marks)
        )
        changes = self.query_one("#ticket-changes", Static)
        shown_changes = changes_text(self.opened, self.legs, self.ended)
        changes.update(shown_changes)
        changes.display = bool(shown_changes.plain)
        self.query_one("#ticket-result", Static).update(result_text(self.plan, self.legs))
        warning = self.query_one("#ticket-warning", Static)
        shown_warning = loss_warning(self.plan, self.legs)
        warning.update(shown_warning)
        warning.display = bool(shown_warning.plain)
        warning.set_class(self.plan is not None and self.plan.loses, "-warning")
        self.query_one("#ticket-hint", Static).update(self._hint_text())

    def _hint_text(self) -> Text:
        first = place_first(self.legs)
        if first is None:
            return Text("No leg moved in the last two minutes: place the smallest limit first.")
        leg = self.legs[first]
        word = "shortened" if leg.direction < 0 else "drifted"
        ago = f"{leg.moved_ago:.0f}s" if leg.moved_ago is not None else "just"
        text = Text("Place first: ", style="bold")
        text.append_text(plain(f"leg {first + 1}, {leg.bookmaker} {leg.label or leg.side}"))
        text.append(f": its price {word} {ago} ago and may move again.")
        return text

    # ------------------------------------------------------------------ events

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.recompute()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.recompute()
        if self.plan is not None:
            self.query_one(TicketPanel).focus()

    def action_edit(self, selector: str) -> None:
        self.query_one(selector, Input).focus()

    def action_accept(self) -> None:
        if self.ended:
            self.notify(
                f"Not logged: the match is {self.ended}, nothing on it can be traded "
                "(escape closes the ticket).",
                severity="warning",
                markup=False,
            )
            return
        if self.plan is None:
            self.notify(f"Not logged: {self.error}", severity="warning", markup=False)
            return
        gone = tuple(gone_legs(self.legs))
        if gone and self._confirmed_gone != gone:
            self._confirmed_gone = gone
            names = ", ".join(f"leg {i + 1} ({clean(self.legs[i].bookmaker)})" for i in gone)
            self.notify(
                f"Not logged yet: {names} no longer quoted. enter again logs the bet as shown; "
                "escape cancels.",
                severity="warning",
                timeout=8,
                markup=False,
            )
            return
        self._handed_back = True  # the plan handed back is the one shown
        if self._bet is not None:
            bet = bet_from_ticket(self._bet, self.plan, self.legs, time.time())
            self.app.post_message(BetTaken(bet))
        self.dismiss(self.plan)

    def _on_tick(self, _now: float) -> None:
        if not self.is_current or self._handed_back:
            return
        if self.focused is None:  # the ticket's keys always work: the panel takes them back
            self.query_one(TicketPanel).focus()
        if self._refresh_legs is None:
            return
        read = self._refresh_legs()
        if read is not None:
            self.follow(read)

    def follow(self, read: TicketRead) -> None:
        """Show the line as `read` says it is now (see `live_legs`)."""
        legs = follow(self.opened, read.legs)
        if tuple(gone_legs(legs)) != self._confirmed_gone:
            self._confirmed_gone = None  # another leg went (or came back): confirm again
        if legs != self.legs or read.ended != self.ended:
            self.legs, self.ended = legs, read.ended
            self.recompute()

    def action_cancel(self) -> None:
        self._handed_back = True
        if self._bet is not None:
            self.notify("Ticket closed: no bet logged.", timeout=4)
        self.dismiss(None)

    def action_cycle_mode(self) -> None:
        if self.capped_leg is None:
            self.capped_leg = 0
        elif self.capped_leg + 1 < len(self.legs):
            self.capped_leg += 1
        else:
            self.capped_leg = None
        self.recompute()

    def action_toggle_round_up(self) -> None:
        self.round_up = not self.round_up
        self.recompute()

    def action_take_safer(self) -> None:
        safer = self.plan.safer if self.plan is not None else None
        if safer is None:
            self.notify("No safer rounding to take: this one does not lose.", timeout=3)
            return
        self.round_up = safer.round_up
        self.query_one("#step", Input).value = f"{safer.step:g}"  # recomputes on the change
        self.recompute()

    def action_copy(self) -> None:
        if self.plan is None:
            self.notify(f"Nothing to copy: {self.error}", severity="warning", markup=False)
            return
        text = clipboard_text(self.shown_title, self._clean_legs(), self.plan)
        # Textual writes it as OSC 52, which the terminal (even over SSH) puts on the clipboard.
        self.app.copy_to_clipboard(text)
        self.notify("Stakes copied to the clipboard.", timeout=3)

    def _clean_legs(self) -> list[TicketLeg]:
        return [
            TicketLeg(clean(leg.side), clean(leg.bookmaker), leg.price, clean(leg.label))
            for leg in self.legs
        ]

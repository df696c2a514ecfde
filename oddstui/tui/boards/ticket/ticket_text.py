"""What the stake ticket draws: the legs table, the summary and the loss warning (Rich only).

Laid out to fit the ticket at 80 columns: the numbers keep their full width and the leg and
bookmaker names give way (cut with an ellipsis) however long the team names are.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from oddstui.book.formats import OddsFormat
from oddstui.book.stakes import LOSS_TOLERANCE
from oddstui.tui.boards.board_cells import age_text
from oddstui.tui.boards.ticket.live_legs import leg_change, leg_mark
from oddstui.tui.boards.ticket.stakes import StakePlan, TicketLeg
from oddstui.tui.kit.prices import board_price_text
from oddstui.tui.text import plain

ARROWS = {1: "▲", -1: "▼", 0: ""}
#: Names give way to numbers: (header, justify, ratio); a ratio makes a column flexible.
COLUMNS = (
    ("leg", "left", 3),
    ("bookmaker", "left", 2),
    ("price", "right", None),
    ("move", "right", None),
    ("age", "right", None),
    ("stake", "right", None),
    ("return", "right", None),
)


def money(amount: float, sign: bool = True) -> str:
    """`+2.34`; a float-error residue shows as `+0.00`, never as a loss of `-0.00`."""
    if abs(amount) < LOSS_TOLERANCE:
        amount = 0.0
    return f"{amount:+.2f}" if sign else f"{amount:.2f}"


def legs_table(
    legs: Sequence[TicketLeg],
    plan: StakePlan | None,
    fmt: OddsFormat,
    marks: Sequence[str] | None = None,
) -> Table:
    """One row per leg; `marks` (`live_legs.leg_mark`) goes before the leg's name."""
    table = Table(box=None, expand=True, pad_edge=False, header_style="bold")
    for name, justify, ratio in COLUMNS:
        table.add_column(
            name,
            justify=justify,  # type: ignore[arg-type]
            no_wrap=True,
            overflow="ellipsis",
            ratio=ratio,
            min_width=4 if ratio else None,
        )
    for index, leg in enumerate(legs):
        move = Text("")
        if leg.direction:
            move = Text(f"{ARROWS[leg.direction]} {board_price_text(leg.previous, fmt)}")
        limited = plan is not None and plan.limited_leg == index
        mark = marks[index] if marks else ""
        leg_name = plain(leg.label or leg.side)
        if mark:
            leg_name = Text.assemble((f"{mark} ", "bold"), leg_name)
        table.add_row(
            leg_name,
            plain(leg.bookmaker),
            Text(board_price_text(leg.price, fmt) + ("*" if leg.commission else "")),
            move,
            age_text(leg.age),
            Text((f"{plan.stakes[index]:.2f}" + ("≤" if limited else "")) if plan else "–"),
            Text(f"{plan.returns[index]:.2f}" if plan else "–"),
        )
    return table


def changes_text(opened: Sequence[TicketLeg], legs: Sequence[TicketLeg], ended: str) -> Text:
    """One line per leg changed since the ticket opened (`✗ leg 2: FanDuel no longer quotes
    it`), and why the ticket will not log; empty when nothing changed."""
    text = Text()
    if ended:
        text.append(f"✗ the match is {ended}: this ticket cannot be logged", "bold")
    for index, (was, now) in enumerate(zip(opened, legs, strict=True)):
        change = leg_change(was, now)
        if change:
            text.append("\n" if text else "")
            text.append_text(plain(f"{leg_mark(was, now)} leg {index + 1}: {change}"))
    if any(leg.gone for leg in legs) and not ended:
        text.append("\n· a gone leg: enter twice to log the bet as shown", "dim")
    return text


def result_text(plan: StakePlan | None, legs: Sequence[TicketLeg]) -> Text:
    """Two short lines: what is staked and how it was rounded; what it wins or loses."""
    if plan is None:
        return Text("Fix the input above to see the stakes.", style="dim")
    text = Text()
    text.append(f"total {plan.total:.2f}")
    if plan.step and abs(plan.total - plan.asked) > 1e-9:
        text.append(f" of {plan.asked:.2f}", "dim")
    if plan.step:
        way = "up" if plan.round_up else "down"
        text.append(f" · rounded {way} to {plan.step:g}")
        text.append(f" (unrounded {money(plan.exact_guaranteed)})", "dim")
    else:
        text.append(" · not rounded")
    text.append("\n")
    style = "bold reverse" if plan.loses else "bold"
    pct = plan.guaranteed_pct if abs(plan.guaranteed) >= LOSS_TOLERANCE else 0.0
    text.append(f"worst case {money(plan.guaranteed)} ({pct:+.2f}%)", style)
    text.append(f" · best case {money(plan.best_case)}")
    if plan.limited_leg is not None:
        leg = legs[plan.limited_leg]
        text.append("\n")
        text.append_text(
            plain(
                f"≤ leg {plan.limited_leg + 1} at {leg.bookmaker}'s limit {leg.limit:g}: "
                "every stake scaled to match"
            )
        )
    rates = {leg.commission for leg in legs if leg.commission}
    if rates:
        shown = ", ".join(f"{rate:.0%}" for rate in sorted(rates))
        text.append(f"\n* an exchange's price, net of {shown} commission on winnings", "dim")
    return text


def loss_warning(plan: StakePlan | None, legs: Sequence[TicketLeg]) -> Text:
    """`⚠ …` whenever the worst case loses; empty otherwise. Says why, and what does not lose."""
    if plan is None or not plan.loses:
        return Text("")
    if not plan.rounding_loses:
        return Text(
            f"⚠ worst case {money(plan.guaranteed)}: these prices no longer make an "
            "arbitrage; every split loses"
        )
    way = "up" if plan.round_up else "down"
    text = Text(f"⚠ rounding {way} to {plan.step:g} loses {money(-plan.guaranteed, False)}")
    safer = plan.safer
    if safer is None:
        text.append(": no rounding near it keeps the worst case; clear the step (r)")
        return text
    safer_way = "up" if safer.round_up else "down"
    text.append(
        f" · o: round {safer_way} to {safer.step:g}, worst case {money(safer.result.guaranteed)}"
    )
    return text

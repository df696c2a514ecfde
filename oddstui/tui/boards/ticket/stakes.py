"""The stake ticket's numbers: stakes per leg from a total or a capped leg, rounded to a step.

All the maths is `oddstui.book.stakes`; this module only reads the trader's text, picks the
function and says in one line why an input is refused. No textual here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from oddstui.book.stakes import (
    RoundingChoice,
    best_case_result,
    capped_stakes,
    equal_return_stakes,
    guaranteed_result,
    is_loss,
    rounded_stakes,
    safer_rounding,
    within_limits,
)

#: How far back a price move counts as "moving" for the place-first hint, in seconds.
MOVING_WITHIN = 120.0


@dataclass(frozen=True, slots=True)
class TicketLeg:
    """One leg as the ticket shows it."""

    side: str
    bookmaker: str
    price: float
    label: str = ""
    age: float | None = None
    """Seconds since the price last changed, when known."""
    previous: float | None = None
    """The price before its last move, when it moved."""
    moved_ago: float | None = None
    """Seconds since that move."""
    commission: float = 0.0
    """An exchange's commission on winnings, already taken out of `price` (and `previous`)."""
    limit: float | None = None
    """The most the bookmaker takes on this leg (the line's `max`), when it says."""
    gone: bool = False
    """The bookmaker no longer quotes this leg: `price` is the last one seen."""

    @property
    def direction(self) -> int:
        if self.previous is None or self.previous == self.price:
            return 0
        return 1 if self.price > self.previous else -1


@dataclass(frozen=True, slots=True)
class StakePlan:
    """What the ticket computed: the stakes and what they guarantee."""

    stakes: tuple[float, ...]
    returns: tuple[float, ...]
    total: float
    guaranteed: float
    best_case: float
    exact_guaranteed: float
    """The guaranteed profit of the unrounded stakes, for comparison."""
    step: float | None
    asked: float = 0.0
    """The total the trader's input asks for (the unrounded stakes' sum)."""
    round_up: bool = False
    """Rounded up: the total may exceed `asked`; otherwise it never does."""
    limited_leg: int | None = None
    """The leg whose bookmaker's limit scaled every stake down, if one did."""
    safer: RoundingChoice | None = None
    """When the rounding makes the worst case a loss, the nearest rounding that does not."""

    @property
    def guaranteed_pct(self) -> float:
        return self.guaranteed / self.total * 100.0

    @property
    def loses(self) -> bool:
        """The worst case loses money: the ticket must say so."""
        return is_loss(self.guaranteed)

    @property
    def rounding_loses(self) -> bool:
        """The unrounded stakes do not lose, the rounded ones do."""
        return self.loses and not is_loss(self.exact_guaranteed)


def parse_amount(text: str, what: str) -> float:
    """A positive finite number, or `ValueError` naming `what` and the rule."""
    cleaned = text.strip().replace(",", "")
    if not cleaned:
        raise ValueError(f"{what} is empty: type a number")
    try:
        value = float(cleaned)
    except ValueError:
        raise ValueError(f"{what} must be a number, not {text.strip()!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number")
    if value < 0:
        raise ValueError(f"{what} cannot be negative")
    if value == 0:
        raise ValueError(f"{what} must be above zero")
    return value


def parse_step(text: str) -> float | None:
    """The rounding step; empty text (or 0) means no rounding."""
    cleaned = text.strip()
    if cleaned in ("", "0", "0.0", "none"):
        return None
    return parse_amount(cleaned, "rounding step")


def plan_stakes(
    prices: Sequence[float],
    amount_text: str,
    step_text: str,
    capped_leg: int | None = None,
    round_up: bool = False,
    limits: Sequence[float | None] | None = None,
) -> StakePlan:
    """Stakes for `prices` from the trader's text.

    `capped_leg` None: `amount_text` is the total stake, split for equal returns.
    Otherwise it is that leg's stake (a bookmaker's limit) and the others match its return.
    No leg stakes over its bookmaker's limit in `limits`: every stake is scaled down with the
    leg that binds. Rounded stakes never add up to more than that total, unless `round_up`;
    when rounding makes the worst case a loss, the plan carries the nearest one that does not.
    Raises `ValueError` with the reason the ticket shows inline.
    """
    what = "total stake" if capped_leg is None else f"stake on leg {capped_leg + 1}"
    amount = parse_amount(amount_text, what)
    step = parse_step(step_text)
    if step is not None and step > amount:
        raise ValueError(f"rounding step {step:g} is larger than the {what} {amount:g}")
    book_limits = list(limits) if limits is not None else [None] * len(prices)
    if len(book_limits) != len(prices):
        raise ValueError(f"need one limit per leg, for {len(prices)} legs")
    if capped_leg is None:
        wanted = equal_return_stakes(prices, amount)
    else:
        wanted = capped_stakes(prices, capped_leg, amount)
    exact, limited_leg = within_limits(prices, wanted, book_limits)
    exact_guaranteed = guaranteed_result(prices, exact)
    asked = sum(exact)
    if step is None:
        return _plan(prices, tuple(exact), exact_guaranteed, None, asked, limited_leg=limited_leg)
    rounding_limits = list(book_limits)
    if capped_leg is not None:  # the stake typed for a capped leg is a limit too
        held = rounding_limits[capped_leg]
        rounding_limits[capped_leg] = amount if held is None else min(held, amount)
    if step * len(prices) > asked + 1e-9 and not round_up:
        raise ValueError(
            f"the limits leave {asked:.2f} to stake: too little for {len(prices)} legs in "
            f"steps of {step:g}"
            if limited_leg is not None
            else f"a total of {asked:g} cannot stake {len(prices)} legs in steps of {step:g}: "
            f"raise it to {step * len(prices):g} or choose round up"
        )
    rounded = rounded_stakes(prices, asked, step, round_up, rounding_limits)
    safer = None
    if is_loss(rounded.guaranteed) and not is_loss(exact_guaranteed):
        safer = safer_rounding(prices, asked, step, round_up, rounding_limits)
    return _plan(
        prices, rounded.stakes, exact_guaranteed, step, asked, round_up, limited_leg, safer
    )


def _plan(
    prices: Sequence[float],
    stakes: Sequence[float],
    exact_guaranteed: float,
    step: float | None,
    asked: float,
    round_up: bool = False,
    limited_leg: int | None = None,
    safer: RoundingChoice | None = None,
) -> StakePlan:
    return StakePlan(
        stakes=tuple(stakes),
        returns=tuple(s * d for s, d in zip(stakes, prices, strict=True)),
        total=sum(stakes),
        guaranteed=guaranteed_result(prices, stakes),
        best_case=best_case_result(prices, stakes),
        exact_guaranteed=exact_guaranteed,
        step=step,
        asked=asked,
        round_up=round_up,
        limited_leg=limited_leg,
        safer=safer,
    )


def place_first(legs: Sequence[TicketLeg]) -> int | None:
    """The leg to place first: the one whose price moved most recently (it may move again)."""
    moving = [
        (leg.moved_ago, index)
        for index, leg in enumerate(legs)
        if leg.moved_ago is not None and leg.moved_ago <= MOVING_WITHIN and leg.direction
    ]
    return min(moving)[1] if moving else None


def clipboard_text(title: str, legs: Sequence[TicketLeg], plan: StakePlan) -> str:
    """The stakes as plain lines for a bet slip (what `c` copies)."""
    lines = [title]
    for leg, stake in zip(legs, plan.stakes, strict=True):
        lines.append(f"{leg.bookmaker}\t{leg.label or leg.side}\t@ {leg.price:.3f}\t{stake:.2f}")
    lines.append(
        f"total {plan.total:.2f}\tguaranteed {plan.guaranteed:+.2f}\tbest {plan.best_case:+.2f}"
    )
    return "\n".join(lines)

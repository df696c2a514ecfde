"""The fair price of each side of a line by the desk's one fair-price policy
(`book.fair_policy`: the first sharp book quoting every back side, its margin removed), and a
price's edge against it. Pure code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from oddstui.book.exchange import is_lay
from oddstui.book.fair_policy import FAIR_POLICY
from oddstui.book.value import expected_value


def fair_line(
    quotes: Mapping[str, Mapping[str, float]], sides: Sequence[str]
) -> tuple[tuple[float | None, ...], str | None]:
    """(fair price per side, in the order of `sides`, None for a lay side; the sharp book used)."""
    backs = [side for side in sides if not is_lay(side)]
    found = FAIR_POLICY.fair_line(quotes, backs)
    if found is None:
        return tuple(None for _ in sides), None
    fair = dict(zip(backs, found.prices(), strict=True))
    return tuple(fair.get(side) for side in sides), found.book


def edge(price: float, fair: float) -> float:
    """A price's edge over the fair price, as a fraction: 2.10 against a fair 2.00 is +0.05.
    It is the price's expected value at the fair probability, the one EV of `book.value`."""
    return expected_value(1.0 / fair, price)


def edge_text(value: float) -> str:
    """`+3.2%`, `-4.1%`, `+0.0%`."""
    return f"{value * 100:+.1f}%"

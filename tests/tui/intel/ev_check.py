"""A row's EV against the price and fair price it shows, within their rounding."""

from __future__ import annotations

from oddstui.book.value import expected_value
from oddstui.tui.kit.marks import SUSPECT_MARK


def _places(text: str) -> float:
    """Half a unit of the last decimal place shown."""
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10.0**-decimals


def assert_ev_follows(price_text: str, fair_text: str, ev_text: str) -> None:
    """EV = price / fair - 1 (`book.value.expected_value` with p = 1 / fair), for every price and
    fair price within the rounding of the texts shown, and the EV's own rounding."""
    price, fair = float(price_text), float(fair_text)
    ev = float(ev_text.replace(SUSPECT_MARK, "").strip().rstrip("%")) / 100.0
    dp, df = _places(price_text), _places(fair_text)
    low = expected_value(1.0 / (fair + df), price - dp)
    high = expected_value(1.0 / (fair - df), price + dp)
    half = _places(ev_text.rstrip("%")) / 100.0
    assert low - half <= ev <= high + half, (
        f"EV {ev_text} does not follow from price {price_text} and fair {fair_text}"
    )

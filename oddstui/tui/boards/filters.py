"""Filters typed into the boards' inline inputs: parsed here, refused with one line of reason.

Each parser turns the text of one input into a value or raises `ValueError` with a message the
board shows next to the input; the board then keeps its last good filter.
"""

from __future__ import annotations

import math


def parse_number(
    text: str, what: str, *, minimum: float = 0.0, maximum: float | None = None
) -> float | None:
    """A number at least `minimum` (and at most `maximum`); empty text means "no limit"."""
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text.rstrip("%s").strip())
    except ValueError:
        raise ValueError(f"{what} must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"{what} must be a finite number")
    if value < minimum:
        raise ValueError(f"{what} must be at least {minimum:g}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{what} must be at most {maximum:g}")
    return value


def parse_names(text: str, what: str) -> frozenset[str]:
    """Comma-separated names, compared case-insensitively; empty text means "all"."""
    names = [part.strip() for part in text.split(",")]
    if any(not name for name in names) and text.strip():
        raise ValueError(f"{what}: an empty name between commas")
    chosen = frozenset(name.casefold() for name in names if name)
    if any(len(name) > 60 for name in chosen):
        raise ValueError(f"{what}: a name longer than 60 characters")
    return chosen

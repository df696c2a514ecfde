"""The flag values `oddstui backtest` and `oddstui books` share, each checked in one place: a bad
one is one line naming the flag (argparse's exit 2)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from oddstui.backtest.partition import MAX_WORKERS


def workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        message = f"--workers must be a whole number, got {text!r}"
        raise argparse.ArgumentTypeError(message) from None
    if not 1 <= value <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"--workers must be 1 to {MAX_WORKERS}, got {text!r}")
    return value


def sharp_books(text: str) -> tuple[str, ...]:
    books = tuple(name.strip() for name in text.split(","))
    if not all(books):
        raise argparse.ArgumentTypeError(f"--sharp must name bookmakers, got {text!r}")
    return books


def number(flag: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{flag} must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{flag} must be a finite number, got {text!r}")
    return value


def checked(flag: str, holds: Callable[[float], bool], wanted: str) -> Callable[[str], float]:
    """A parser of `flag`'s number that must satisfy `holds` (`wanted` says how)."""

    def parse(text: str) -> float:
        value = number(flag, text)
        if not holds(value):
            raise argparse.ArgumentTypeError(f"{flag} must be {wanted}, got {text!r}")
        return value

    return parse


def positive(flag: str) -> Callable[[str], float]:
    return checked(flag, lambda value: value > 0.0, "above 0")


def non_negative(flag: str) -> Callable[[str], float]:
    return checked(flag, lambda value: value >= 0.0, "0 or more")


def share(flag: str) -> Callable[[str], float]:
    return checked(flag, lambda value: 0.0 < value < 1.0, "between 0 and 1")

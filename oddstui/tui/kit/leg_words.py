"""A bet's line and leg in words, as a bettor says them: `-1.5`, `Over 2.5`, `Arsenal -1.5`.

No textual here. The boards name their legs with it and the alert rules their lines.
"""

from __future__ import annotations


def line_text(market: str, hdp: float | None, side: str = "") -> str:
    """A line as a bettor says it: a handicap signed from the side's view, a total plain."""
    if hdp is None:
        return ""
    if "spread" in market.casefold() or "handicap" in market.casefold():
        return f"{-hdp:+g}" if side == "away" else f"{hdp:+g}"
    return f"{hdp:g}"


def leg_label(
    market: str,
    side: str,
    hdp: float | None,
    label: str | None = None,
    home: str = "",
    away: str = "",
) -> str:
    """What one leg backs, in words, line included: `Arsenal -1.5`, `Over 2.5`, `Draw`.

    The same words the service puts in an arbitrage leg's `label`, so a leg the client found
    in the feed's book reads like one the service sent.
    """
    if side == "home" and home:
        text = home
    elif side == "away" and away:
        text = away
    else:
        text = side.capitalize()
    line = line_text(market, hdp, side)
    if line:
        text = f"{text} {line}"
    return f"{label} {text}" if label else text

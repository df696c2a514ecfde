"""Prices in the trader's odds format (the setting), as the bookmaker quotes them. No textual."""

from __future__ import annotations

from oddstui.book.formats import ODDS_FORMATS, OddsFormat, format_price


def odds_format(app: object) -> OddsFormat:
    fmt = getattr(getattr(app, "settings", None), "odds_format", "decimal")
    return fmt if fmt in ODDS_FORMATS else "decimal"


def price_text(price: float | None, fmt: OddsFormat = "decimal") -> str:
    """A price as its bookmaker quotes it (`1.90`, `2.228`): the ticket and the grid agree."""
    return format_price(price, fmt)


def board_price_text(price: float | None, fmt: OddsFormat = "decimal") -> str:
    """A price on a board, whose edge is worked out from the price itself: a fraction that is
    only the nearest ladder price says so (`≈11/2` for 6.32), so the edge shown next to it is not
    taken for one worked out from 11/2."""
    return format_price(price, fmt, mark_rounded=True)

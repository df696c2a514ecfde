"""Synthetic price series with known answers: sharp moves on many lines, followers with set lags."""

from __future__ import annotations

from oddstui.intel.engine import IntelEngine

SHARP = ("Pinnacle", "SingBet")


def two_way(p_home: float, margin: float) -> dict[str, float]:
    """Prices of a two-way line whose margin-free home probability is `p_home`."""
    scale = 1.0 + margin
    home, away = 1.0 / (p_home * scale), 1.0 / ((1 - p_home) * scale)
    return {"home": round(home, 4), "away": round(away, 4)}


def sharp_move(engine: IntelEngine, key: object, t: float, before: float, after: float) -> None:
    for book in SHARP:
        engine.observe(t, key, book, two_way(after, 0.02))


def open_line(engine: IntelEngine, key: object, t: float, p: float,
              books: dict[str, float]) -> None:
    """Every sharp book and every book of `books` (name -> margin) quotes `p`."""
    for book in SHARP:
        engine.observe(t, key, book, two_way(p, 0.02))
    for book, margin in books.items():
        engine.observe(t, key, book, two_way(p, margin))

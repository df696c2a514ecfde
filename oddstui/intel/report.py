"""The engine's answers as figures per bookmaker, and as the JSON of `oddstui books --json`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oddstui.intel.engine import IntelEngine
from oddstui.intel.episodes import SteamEvent
from oddstui.intel.survival import count_followed, km_quantiles


@dataclass(frozen=True, slots=True)
class BookFigures:
    bookmaker: str
    lag_median: float | None
    """Seconds by which half the sharp moves were followed (Kaplan–Meier); None: not yet."""
    lag_p90: float | None
    follows: int
    """Follows seen (the figures rest on these); censored ones are not counted here."""
    censored: int
    led_share: float | None
    updates_per_hour: float | None
    """Price changes per market-hour: changes over (markets quoted × hours watched)."""
    margin_pct: float | None
    cluster: str
    sister_of: str | None
    stale_median: float | None
    stale_n: int
    sharp: bool
    pre_match: tuple[float | None, float | None, int]
    """(median, p90, follows) of the moves before kick-off only."""
    in_play: tuple[float | None, float | None, int]
    """The same, in play."""


def lag_figures(follows: list[tuple[float, bool]]) -> tuple[float | None, float | None, int]:
    """(median, p90, follows seen) by Kaplan–Meier."""
    median, p90 = km_quantiles(follows)
    return median, p90, count_followed(follows)


@dataclass(frozen=True, slots=True)
class IntelReport:
    books: list[BookFigures]
    steam: list[SteamEvent]
    changes: int
    sharp_moves: int
    seconds: float
    """Seconds of price changes watched (last less first)."""
    resolution: float


def report_of(engine: IntelEngine) -> IntelReport:
    """The figures as they stand (call `engine.finish()` first for a finished run)."""
    clusters = engine.clusters()
    sister_of = engine.sisters.sister_of(engine.settings.sister_share)
    span = 0.0 if engine.first is None else max(0.0, engine.now - engine.first)
    hours = span / 3600.0
    books = []
    for name, tally in sorted(engine.books.items()):
        follows = tally.follows
        median, p90 = km_quantiles(follows)
        stale = km_quantiles(tally.stale, (0.5,))[0]
        followed = count_followed(follows)
        per_hour = tally.updates / (len(tally.markets) * hours) if tally.markets and hours else None
        margin = tally.margin_median()
        books.append(BookFigures(
            bookmaker=name,
            lag_median=median,
            lag_p90=p90,
            follows=followed,
            censored=len(follows) - followed,
            led_share=tally.led / tally.joined if tally.joined else None,
            updates_per_hour=per_hour,
            margin_pct=None if margin is None else margin * 100.0,
            cluster=clusters.get(name, name),
            sister_of=sister_of.get(name),
            stale_median=stale,
            stale_n=len(tally.stale),
            sharp=name in engine.settings.sharp,
            pre_match=lag_figures(tally.early_follows),
            in_play=lag_figures(tally.live_follows),
        ))
    return IntelReport(
        books=books,
        steam=engine.steam(clusters),
        changes=engine.changes,
        sharp_moves=engine.sharp_moves,
        seconds=span,
        resolution=engine.resolution.seconds,
    )


def _round(value: float | None, places: int = 3) -> float | None:
    return None if value is None else round(value, places)


def _lag_json(figures: tuple[float | None, float | None, int]) -> dict[str, Any]:
    return {"median": _round(figures[0]), "p90": _round(figures[1]), "n": figures[2]}


def to_json(report: IntelReport, engine: IntelEngine, names: dict[int, str] | None = None
            ) -> dict[str, Any]:
    settings = engine.settings
    books = [
        {
            "bookmaker": b.bookmaker,
            "sharp": b.sharp,
            "lagSeconds": {"median": _round(b.lag_median), "p90": _round(b.lag_p90),
                           "n": b.follows, "censored": b.censored,
                           "resolution": report.resolution,
                           "preMatch": _lag_json(b.pre_match), "inPlay": _lag_json(b.in_play)},
            "ledShare": _round(b.led_share),
            "updatesPerHour": _round(b.updates_per_hour, 1),
            "marginPct": _round(b.margin_pct, 2),
            "cluster": b.cluster,
            "sisterOf": b.sister_of,
            "staleLifeSeconds": {"median": _round(b.stale_median), "n": b.stale_n},
        }
        for b in report.books
    ]
    steam = [
        {
            "time": s.time,
            "eventId": s.key[0] if isinstance(s.key, tuple) else None,
            "event": (names or {}).get(s.key[0]) if isinstance(s.key, tuple) else None,
            "market": s.key[1] if isinstance(s.key, tuple) else None,
            "line": list(s.key[2]) if isinstance(s.key, tuple) else None,
            "direction": "shorter" if s.direction > 0 else "longer",
            "origin": s.origin,
            "breadth": s.breadth,
            "sizePoints": round(s.points * 100.0, 2),
            "sizePct": round(s.size * 100.0, 2),
            "books": s.books,
            "stale": list(s.stale),
        }
        for s in report.steam
    ]
    groups: dict[str, list[str]] = {}
    for b in report.books:
        groups.setdefault(b.cluster, []).append(b.bookmaker)
    return {
        "bookmakers": books,
        "steam": steam,
        "summary": {
            "changes": report.changes,
            "sharpMoves": report.sharp_moves,
            "steamEvents": len(steam),
            "seconds": round(report.seconds, 3),
            "resolutionSeconds": report.resolution,
            "sisterGroups": sorted(sorted(g) for g in groups.values() if len(g) > 1),
            "settings": {"theta": settings.theta, "tau": settings.tau,
                         "epsilon": settings.epsilon, "k": settings.k,
                         "window": settings.window, "horizon": settings.horizon,
                         "sharp": list(settings.sharp)},
        },
    }

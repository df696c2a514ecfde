"""One entry point to the match engines: `make_engine(spec, seed, scores, rating, knockout)`.

Engines are pure: no clock, no I/O, only their own `random.Random(seed)`. Tests drive whole
matches with `advance(dt)` or `play_out()`; `find_seed` picks a seed whose match ends a given
way (overtime, penalties) so that score rules can be tested without luck.
"""

from __future__ import annotations

from collections.abc import Callable

from oddstui.service.world.engines.base import Engine
from oddstui.service.world.engines.misc import RaceEngine, RoundsEngine
from oddstui.service.world.engines.sets import TennisEngine, UnitEngine
from oddstui.service.world.engines.timed import TimedEngine
from oddstui.service.world.model import Scores
from oddstui.service.world.sports import SportSpec

_BY_KIND: dict[str, type[Engine]] = {
    "timed": TimedEngine,
    "batting": TimedEngine,
    "innings": TimedEngine,
    "tennis": TennisEngine,
    "rally": UnitEngine,
    "legs": UnitEngine,
    "frames": UnitEngine,
    "maps": UnitEngine,
    "rounds": RoundsEngine,
    "race": RaceEngine,
}


def make_engine(
    spec: SportSpec, seed: int, scores: Scores | None = None, rating: float = 0.0,
    knockout: bool = False,
) -> Engine:
    return _BY_KIND[spec.engine](spec, seed, scores or Scores(), rating, knockout)


def decided_in_overtime(scores: Scores) -> bool:
    return "ot" in scores.periods and "ap" not in scores.periods


def decided_on_penalties(scores: Scores) -> bool:
    return "ap" in scores.periods


def find_seed(
    spec: SportSpec, wanted: Callable[[Scores], bool], knockout: bool = True,
    rating: float = 0.0, start: int = 0, tries: int = 5000,
) -> int:
    """The first seed from `start` whose played-out match satisfies `wanted`."""
    for seed in range(start, start + tries):
        engine = make_engine(spec, seed, Scores(), rating, knockout)
        engine.play_out()
        if wanted(engine.scores):
            return seed
    raise LookupError(f"no {spec.slug} seed in {tries} tries")

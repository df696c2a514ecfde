"""What every match engine shares.

An engine plays one match. `advance(dt)` moves it `dt` simulated seconds on and mutates the
`Scores` it was given, in place. Engines are event-driven: the next scoring play or unit is drawn
in advance as an absolute match time, so the outcome depends only on the seed, never on how the
time was sliced into steps (a test checks that one big step equals many small ones).
"""

from __future__ import annotations

import random

from oddstui.service.world.model import Clock, Scores
from oddstui.service.world.sports import SportSpec


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class Engine:
    """Base class: subclasses implement `_run_until(t)` and `_clock()`."""

    def __init__(
        self, spec: SportSpec, seed: int, scores: Scores, rating: float, knockout: bool
    ) -> None:
        self.spec = spec
        self.seed = seed
        self.rng = random.Random(seed)
        self.scores = scores
        self.rating = rating  # expected home margin, in the sport's main score units
        self.knockout = knockout
        self.elapsed = 0.0
        self.finished = False
        self.ended_at: float | None = None  # match time of the final whistle
        self.in_overtime = False
        self._changed = False

    # -- the public interface -------------------------------------------------------------
    def advance(self, dt: float) -> bool:
        """Play `dt` simulated seconds; True when the scores changed."""
        if self.finished or dt <= 0:
            return False
        self._changed = False
        self.elapsed += dt
        self._run_until(self.elapsed)
        return self._changed

    def play_out(self) -> None:
        """Play to the final whistle."""
        while not self.finished:
            self.advance(3600.0)

    @property
    def clock(self) -> Clock | None:
        return None if self.finished else self._clock()

    @property
    def progress(self) -> float:
        """Share of regulation played, 0..1."""
        raise NotImplementedError

    # -- helpers for subclasses -----------------------------------------------------------
    def _run_until(self, t: float) -> None:
        raise NotImplementedError

    def _clock(self) -> Clock | None:
        raise NotImplementedError

    def _set_period(self, key: str, home: int, away: int) -> None:
        self.scores.periods[key] = (home, away)
        self._changed = True

    def _add_period(self, key: str, home: int, away: int) -> None:
        h, a = self.scores.periods.get(key, (0, 0))
        self.scores.periods[key] = (h + home, a + away)
        self._changed = True

    def _add_total(self, home: int, away: int) -> None:
        self.scores.home += home
        self.scores.away += away
        self._changed = True

    def _home_share(self, strength: float = 1.0) -> float:
        """Chance that the home side wins an even contest, from the rating."""
        total = max(self.spec.total, 1.0)
        z = strength * self.rating / (total**0.5)
        return min(0.85, max(0.15, 0.5 + 0.35 * z))

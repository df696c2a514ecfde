"""What every match engine shares.

An engine plays one match. `advance(dt)` moves it `dt` simulated seconds on and mutates the
`Scores` it was given, in place. Engines are event-driven: the next scoring play or unit is drawn
in advance as an absolute match time, so the outcome depends only on the seed, never on how the
time was sliced into steps (a test checks that one big step equals many small ones).
"""

from __future__ import annotations

import math
import random

from oddstui.service.world.model import Clock, Scores
from oddstui.service.world.sports import SportSpec
from oddstui.service.world.truth import mix

RED_CARD_STREAM = 0x5ED  # seeds the red cards' own generator: the rest is drawn as before


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
        self._cards: list[tuple[float, int]] = []  # (match time, side 0 home / 1 away), last first

    # -- the public interface -------------------------------------------------------------
    def advance(self, dt: float) -> bool:
        """Play `dt` simulated seconds; True when the scores changed."""
        if self.finished or dt <= 0:
            return False
        self._changed = False
        self.elapsed += dt
        self._run_until(self.elapsed)
        if self._cards:
            self._show_cards(self.elapsed if self.ended_at is None else self.ended_at)
        return self._changed

    def play_out(self) -> None:
        """Play to the final whistle."""
        while not self.finished:
            self.advance(3600.0)

    @property
    def clock(self) -> Clock | None:
        return None if self.finished else self._clock()

    def clock_ahead(self, seconds: float) -> Clock | None:
        """The clock `seconds` of match time after the last `advance`, without playing them:
        what a reader between two steps should see. Only engines whose clock can be read ahead
        (`TimedEngine`) say more than `clock`."""
        return self.clock

    @property
    def progress(self) -> float:
        """Share of regulation played, 0..1."""
        raise NotImplementedError

    # -- helpers for subclasses -----------------------------------------------------------
    def _run_until(self, t: float) -> None:
        raise NotImplementedError

    def _clock(self) -> Clock | None:
        raise NotImplementedError

    def _draw_red_cards(self, play: list[tuple[float, float]]) -> None:
        """Red cards over the regulation's periods of play ((start, length) in match time): a
        Poisson count per side at `spec.red_cards` a match, each at a uniform moment of play."""
        rate = self.spec.red_cards
        if rate <= 0 or not play:
            return
        if self.scores.red_cards is None:
            self.scores.red_cards = (0, 0)
        rng = random.Random(mix(self.seed, RED_CARD_STREAM))
        played = sum(length for _, length in play)
        cards: list[tuple[float, int]] = []
        for side in (0, 1):
            at = rng.expovariate(rate / played)
            while at < played:
                cards.append((_match_time(play, at), side))
                at += rng.expovariate(rate / played)
        self._cards = sorted(cards, reverse=True)

    def _show_cards(self, until: float) -> None:
        while self._cards and self._cards[-1][0] <= until:
            _, side = self._cards.pop()
            home, away = self.scores.red_cards or (0, 0)
            self.scores.red_cards = (home + 1, away) if side == 0 else (home, away + 1)
            self._changed = True

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


def _match_time(play: list[tuple[float, float]], offset: float) -> float:
    """The match time `offset` seconds of play in, over periods of play (start, length)."""
    for start, length in play:
        if offset < length:
            return start + offset
        offset -= length
    start, length = play[-1]
    return math.nextafter(start + length, 0.0)

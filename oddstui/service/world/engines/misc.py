"""Combat rounds (boxing, MMA) and head-to-head races (athletics, golf, cycling, cross-country).

Combat: `p1..pN` hold the judges' 10-9 round scores; a round's key opens (0-0) when the round
starts, and a stoppage ends the fight early, leaving that round at 0-0. The top-level score is
1-0 for the winner (0-0 for a draw). Races: one period `p1` with the result,
1-0 for the athlete who finishes ahead.
"""

from __future__ import annotations

from oddstui.service.world.engines.base import Engine
from oddstui.service.world.model import Clock, Scores
from oddstui.service.world.sports import SportSpec


class RoundsEngine(Engine):
    def __init__(
        self, spec: SportSpec, seed: int, scores: Scores, rating: float, knockout: bool
    ) -> None:
        super().__init__(spec, seed, scores, rating, knockout)
        self.round = 1
        self._scored = False  # the current round is over and on the cards (a break follows)
        self._p_home = self._home_share(1.0)
        finish = spec.extra.get("finish", 0.1)
        self._stoppage_at: float | None = None
        # Draw the stoppage, if any, up front: round and second.
        for n in range(1, spec.periods + 1):
            if self.rng.random() < finish:
                start = (n - 1) * (spec.real_s + spec.break_s)
                self._stoppage_at = start + spec.real_s * self.rng.random()
                break
        self._round_end = spec.real_s
        self._set_period("p1", 0, 0)

    def _run_until(self, t: float) -> None:
        spec = self.spec
        while not self.finished:
            if self._scored:
                # In the break after a round: the next one opens (at 0-0) when it begins.
                if self._round_end + spec.break_s > t:
                    return
                self.round += 1
                self._round_end += spec.break_s + spec.real_s
                self._scored = False
                self._set_period(f"p{self.round}", 0, 0)
                continue
            if self._stoppage_at is not None and self._stoppage_at <= min(t, self._round_end):
                # Stopped inside the round: it gets no card and stays at 0-0.
                winner = 0 if self.rng.random() < self._p_home else 1
                self._set_period("ft", *((1, 0) if winner == 0 else (0, 1)))
                self._add_total(*self.scores.periods["ft"])
                self.finished = True
                self.ended_at = self._stoppage_at
                return
            if self._round_end > t:
                return
            winner = 0 if self.rng.random() < self._p_home else 1
            self._set_period(f"p{self.round}", *((10, 9) if winner == 0 else (9, 10)))
            self._scored = True
            if self.round == spec.periods:
                self._decision()
                return

    def _decision(self) -> None:
        home = sum(h for k, (h, _) in self.scores.periods.items() if k.startswith("p"))
        away = sum(a for k, (_, a) in self.scores.periods.items() if k.startswith("p"))
        result = (1, 0) if home > away else (0, 1) if away > home else (0, 0)
        if result == (0, 0) and not self.spec.draw:
            result = (1, 0) if self.rng.random() < self._p_home else (0, 1)
        self._set_period("ft", *result)
        self._add_total(*result)
        self.finished = True
        self.ended_at = self._round_end

    @property
    def progress(self) -> float:
        per = self.spec.real_s + self.spec.break_s
        return 1.0 if self.finished else min(1.0, self.elapsed / (per * self.spec.periods))

    def _clock(self) -> Clock | None:
        # playedSeconds is fight time (breaks excluded); the minute is the round's own.
        real = self.spec.real_s
        last_minute = max(1, int(real // 60))
        if self._scored:
            played = int(self.round * real)
            return Clock(last_minute, played, self.round, False, f"End of round {self.round}", 0)
        into = min(real, max(0.0, self.elapsed - (self._round_end - real)))
        played = int((self.round - 1) * real + into)
        minute = min(int(into // 60) + 1, last_minute)
        return Clock(minute, played, self.round, True, f"Round {self.round}", 0)


class RaceEngine(Engine):
    def __init__(
        self, spec: SportSpec, seed: int, scores: Scores, rating: float, knockout: bool
    ) -> None:
        super().__init__(spec, seed, scores, rating, knockout)
        self._winner = 0 if self.rng.random() < self._home_share(1.0) else 1
        self._set_period("p1", 0, 0)

    def _run_until(self, t: float) -> None:
        if t >= self.spec.real_s:
            result = (1, 0) if self._winner == 0 else (0, 1)
            self._set_period("p1", *result)
            self._set_period("ft", *result)
            self._add_total(*result)
            self.finished = True
            self.ended_at = self.spec.real_s

    @property
    def progress(self) -> float:
        return 1.0 if self.finished else min(1.0, self.elapsed / self.spec.real_s)

    def _clock(self) -> Clock | None:
        seconds = int(self.elapsed)
        label = self.spec.period_word.capitalize()
        if self.spec.slug == "golf":  # a round of 18 holes: the desk shows the hole
            label = f"Hole {min(18, int(self.elapsed / (self.spec.real_s / 18)) + 1)}"
        return Clock(seconds // 60 + 1, seconds, 1, True, label, 0)

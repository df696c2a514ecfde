"""Clocked matches: periods of play and breaks, overtime and shoot-outs.

Used by football, basketball, ice hockey, handball, rugby, cricket (batting innings), baseball
and curling (innings/ends), and the other team sports with a period structure.

Score keys: `p1..pN` per regulation period, `ft` when regulation ends, `ot` (the cumulative score
after overtime) when overtime is played, `ap` (the shoot-out tally) after a shoot-out. The
top-level score is the running total: it equals `ot` when decided in overtime and stays at `ft`
when decided on penalties.

A period's key opens (0-0) when the period starts, so a live match in period N shows p1..pN.
Extra innings and ends are labelled by number ("10th inning"); in curling one side scores per end.
"""

from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass

from oddstui.service.world import sports as S
from oddstui.service.world.engines.base import Engine, ordinal
from oddstui.service.world.model import Clock, Scores
from oddstui.service.world.sports import SportSpec
from oddstui.service.world.truth import mix

PLAY, BREAK, SHOOTOUT = "play", "break", "shootout"
KICK_INTERVAL = 45.0  # simulated seconds between shoot-out attempts
KICK_SUCCESS = 0.74
RUN_MIN, RUN_MAX = 15.0, 110.0  # game-clock seconds the clock runs between two stoppages
MIN_STOPPAGE = 2.0  # simulated seconds
OVER_SECONDS = 270.0  # a T20 over: 6 balls, 45 simulated seconds each


@dataclass(slots=True)
class Phase:
    kind: str
    key: str  # score key of a play phase: "p1".., or "ot"
    label: str  # statusDetail
    period: int  # clock period number
    start: float  # match time it begins
    real: float  # simulated seconds it lasts (injury time included)
    game: float  # game-clock seconds it covers (injury time excluded)
    injury: int = 0  # announced added minutes
    game_before: float = 0.0  # game-clock seconds played before it
    minute_end: int = 0  # the minute shown at the end of regulation time of the period
    ratio: float = 1.0  # game-clock seconds per simulated second, over the whole phase
    # The clock's runs within the phase: (start offset, game seconds before it, length); the
    # gaps between runs are stoppages, when the clock stands (see `_runs`).
    runs: list[tuple[float, float, float]] | None = None


class TimedEngine(Engine):
    def __init__(
        self, spec: SportSpec, seed: int, scores: Scores, rating: float, knockout: bool
    ) -> None:
        super().__init__(spec, seed, scores, rating, knockout)
        self.rule = spec.knockout_overtime if knockout else spec.overtime
        self.batting = spec.engine == "batting"
        self.clocked = spec.engine in ("timed", "batting")
        self.one_scorer = spec.slug == "curling"  # one side scores per end
        self._end_scorer: bool | None = None  # True: home has scored in this end
        mean_inc = sum(v * w for v, w in spec.increments) / sum(w for _, w in spec.increments)
        self._incs = [v for v, _ in spec.increments]
        self._inc_weights = [w for _, w in spec.increments]
        home_mean = max(0.05 * spec.total, (spec.total + rating) / 2)
        away_mean = max(0.05 * spec.total, (spec.total - rating) / 2)
        reg_real = spec.periods * spec.real_s
        self._rate_home = home_mean / mean_inc / reg_real  # scoring plays per simulated second
        self._rate_away = away_mean / mean_inc / reg_real
        self.phases: list[Phase] = []
        self._build_regulation()
        self._draw_red_cards([(p.start, p.real) for p in self.phases if p.kind == PLAY])
        self._index = 0
        self._next_score = math.inf
        self._kicks = 0
        self._kick_tally = [0, 0]
        self._kicks_taken = [0, 0]
        self._enter(0)

    # -- phases ---------------------------------------------------------------------------
    def _build_regulation(self) -> None:
        spec, t, game = self.spec, 0.0, 0.0
        for n in range(1, spec.periods + 1):
            injury = 0
            if spec.slug in ("football", "bandy", "futsal", "gaelic-football") and self.clocked:
                injury = self.rng.randint(1, 3 if n == 1 else 6)
            ratio = spec.game_s / spec.real_s
            real = spec.real_s + injury * 60 / ratio
            minute_end = int((game + spec.game_s) // 60)
            label = f"{ordinal(n)} {spec.period_word}"
            self.phases.append(
                Phase(PLAY, f"p{n}", label, n, t, real, spec.game_s, injury, game, minute_end,
                      ratio)
            )
            t += real
            game += spec.game_s
            if n < spec.periods:
                half = spec.periods % 2 == 0 and n == spec.periods // 2
                length = spec.half_break_s if half or spec.periods == 3 else spec.break_s
                label = "Halftime" if half and spec.periods in (2, 4) else "Break"
                if self.batting:
                    label = "Innings break"
                self.phases.append(Phase(BREAK, "", label, n, t, length, 0, 0, game, minute_end))
                t += length

    def _append_overtime(self) -> None:
        spec, last = self.spec, self.phases[-1]
        t = last.start + last.real
        game = last.game_before + last.game
        period = last.period + 1
        count = spec.ot_periods if self.rule == S.ET_PENALTIES else 1
        gap = 300.0 if self.rule == S.ET_PENALTIES else max(spec.break_s, 60.0)
        self.phases.append(Phase(BREAK, "", "Break before overtime", last.period, t, gap, 0, 0,
                                 game, last.minute_end))
        t += gap
        for n in range(count):
            word = "Extra time" if self.rule == S.ET_PENALTIES else "Overtime"
            label = word if count == 1 else f"{word} {ordinal(n + 1)} half"
            if spec.engine == "innings":  # an extra inning or end carries its own number
                label = f"{ordinal(period)} {spec.period_word}"
            elif self.batting:
                label = "Super over"
            minute_end = int((game + spec.ot_game_s) // 60)
            self.phases.append(Phase(PLAY, "ot", label, period, t, spec.ot_real_s, spec.ot_game_s,
                                     0, game, minute_end, spec.ot_game_s / spec.ot_real_s))
            t += spec.ot_real_s
            game += spec.ot_game_s
            period += 1

    def _append_shootout(self) -> None:
        last = self.phases[-1]
        t = last.start + last.real
        game = last.game_before + last.game
        label = "Penalties" if self.spec.slug in ("football", "futsal", "bandy") else "Shoot-out"
        self.phases.append(Phase(SHOOTOUT, "ap", label, last.period, t, math.inf, 0, 0, game,
                                 last.minute_end))

    def _enter(self, index: int) -> None:
        self._index = index
        phase = self.phases[index]
        if phase.kind == PLAY:
            self._end_scorer = None
            if phase.key.startswith("p"):
                self._set_period(phase.key, 0, 0)
            self._draw_next_score(phase.start)
        elif phase.kind == SHOOTOUT:
            self._set_period("ap", 0, 0)
            self._next_score = phase.start + KICK_INTERVAL

    def _draw_next_score(self, now: float) -> None:
        rate = self._rates(self.phases[self._index])
        total = rate[0] + rate[1]
        self._next_score = now + self.rng.expovariate(total) if total > 0 else math.inf

    def _rates(self, phase: Phase) -> tuple[float, float]:
        home, away = self._rate_home, self._rate_away
        if self.batting and phase.key.startswith("p"):
            # Home bats in the first innings, away in the second.
            return (home * 2, 0.0) if phase.key == "p1" else (0.0, away * 2)
        if phase.key == "ot" and self.rule == S.ET_PENALTIES:
            # In extra time only the side in front can add to its lead (see module notes).
            ft_h, ft_a = self.scores.periods["ft"]
            lead = (self.scores.home - ft_h) - (self.scores.away - ft_a)
            if lead > 0:
                away = 0.0
            elif lead < 0:
                home = 0.0
        return home, away

    # -- running --------------------------------------------------------------------------
    def _run_until(self, t: float) -> None:
        while not self.finished:
            phase = self.phases[self._index]
            end = phase.start + phase.real
            if phase.kind == SHOOTOUT:
                if self._next_score > t:
                    return
                self._kick(self._next_score)
                continue
            if phase.kind == PLAY and self._next_score <= min(t, end):
                self._score(self._next_score, phase)
                continue
            if end > t:
                return
            self._end_phase(phase)

    def _score(self, at: float, phase: Phase) -> None:
        home_rate, away_rate = self._rates(phase)
        points = self.rng.choices(self._incs, self._inc_weights)[0]
        home = self.rng.random() * (home_rate + away_rate) < home_rate
        if self.one_scorer:
            # Curling: only the side with the stone nearest the button scores in an end.
            if self._end_scorer is None:
                self._end_scorer = home
            home = self._end_scorer
        h, a = (points, 0) if home else (0, points)
        self._add_total(h, a)
        self._add_period(phase.key, h, a)
        if phase.key == "ot" and self.rule in (S.OT_SUDDEN, S.OT_SHOOTOUT):
            self._finish(at)
            return
        if self.batting and phase.key == "p2" and self.scores.away > self.scores.home:
            self._set_period("ft", self.scores.home, self.scores.away)  # the chase is complete
            self._finish(at)
            return
        self._draw_next_score(at)

    def _end_phase(self, phase: Phase) -> None:
        end = phase.start + phase.real
        last_regulation = phase.kind == PLAY and phase.key == f"p{self.spec.periods}"
        index = self._index + 1
        if last_regulation:
            self._set_period("ft", self.scores.home, self.scores.away)
            if self.scores.home != self.scores.away or self.rule == S.NO_OT:
                self._finish(end)
                return
            if self.rule == S.SHOOTOUT:
                self._append_shootout()
            else:
                self._start_overtime()
        elif phase.key == "ot" and index >= len(self.phases):
            tied = self.scores.home == self.scores.away
            if tied and self.rule in (S.ET_PENALTIES, S.OT_SHOOTOUT):
                self._append_shootout()
            elif tied and self.rule in (S.OT_REPEAT, S.OT_SUDDEN):
                self._append_overtime()
            else:
                self._finish(end)
                return
        self._enter(index)

    def _start_overtime(self) -> None:
        self.in_overtime = True
        self._set_period("ot", self.scores.home, self.scores.away)
        self._append_overtime()

    def _kick(self, at: float) -> None:
        side = self._kicks % 2
        self._kicks += 1
        self._kicks_taken[side] += 1
        share = self._home_share(0.5)
        chance = KICK_SUCCESS + (share - 0.5) * (0.3 if side == 0 else -0.3)
        if self.rng.random() < chance:
            self._kick_tally[side] += 1
        self._set_period("ap", self._kick_tally[0], self._kick_tally[1])
        if self._shootout_decided():
            self._finish(at)
        else:
            self._next_score = at + KICK_INTERVAL

    def _shootout_decided(self) -> bool:
        (h, a), (th, ta) = self._kick_tally, self._kicks_taken
        rounds = 5
        if th <= rounds and ta <= rounds:
            return h + (rounds - th) < a or a + (rounds - ta) < h
        return th == ta and h != a

    def _finish(self, at: float) -> None:
        self.finished = True
        self.ended_at = at
        if "ft" not in self.scores.periods:
            self._set_period("ft", self.scores.home, self.scores.away)
        self._changed = True

    # -- reading ----------------------------------------------------------------------------
    @property
    def progress(self) -> float:
        if self.finished:
            return 1.0
        phase = self.phases[self._index]
        if phase.key == "ot" or phase.kind == SHOOTOUT or phase.game_before >= self._reg_game:
            return 1.0
        done = phase.game_before
        if phase.kind == PLAY:
            done += min(phase.game, (self.elapsed - phase.start) * phase.game / phase.real)
        return min(1.0, done / self._reg_game)

    @property
    def _reg_game(self) -> float:
        return self.spec.periods * self.spec.game_s

    def clock_ahead(self, seconds: float) -> Clock | None:
        """The clock `seconds` on, read from the current phase's runs (drawn once, so reading
        ahead changes nothing); a phase that would end meanwhile reads as at its end, until a
        step plays into the next one."""
        if self.finished or seconds <= 0:
            return self.clock
        played, self.elapsed = self.elapsed, self.elapsed + seconds
        try:
            return self._clock()
        finally:
            self.elapsed = played

    def _clock(self) -> Clock | None:
        phase = self.phases[self._index]
        if phase.kind != PLAY:
            played = int(self._played_before())
            if self.clocked:
                # The clock stands where the period's runs left it (its added time included):
                # read from them, not from the period's length, so it never jumps at the whistle
                # (stoppages of at least MIN_STOPPAGE can make the runs a second or two longer
                # than the period).
                last = self.phases[self._index - 1] if self._index else phase
                if last.kind == PLAY:
                    played_here, _ = self._game_clock(last, last.real)
                    played = int(last.game_before + played_here)
                else:
                    played = int(phase.game_before)
            minute = max(phase.minute_end, played // 60) if self.clocked else played // 60
            return Clock(minute, played, phase.period, False, phase.label, 0)
        into = max(0.0, self.elapsed - phase.start)
        if not self.clocked:
            played = int(self._played_before() + into)
            label = phase.label
            if self.spec.slug == "baseball" and phase.key.startswith("p"):
                label = f"{'Top' if into < phase.real / 2 else 'Bottom'} {label}"
            return Clock(played // 60 + 1, played, phase.period, True, label, 0)
        played_here, running = self._game_clock(phase, into)
        total_played = phase.game_before + played_here
        minute = min(int(total_played // 60) + 1, phase.minute_end)
        stoppage = played_here >= phase.game and phase.injury > 0
        label = phase.label
        if self.batting and phase.key.startswith("p"):
            balls = int(played_here // (OVER_SECONDS / 6))
            label = f"{label} · {balls // 6}.{balls % 6} ov"
        return Clock(minute, int(total_played), phase.period, running, label,
                     phase.injury if stoppage else 0)

    def _game_clock(self, phase: Phase, into: float) -> tuple[float, bool]:
        """Game-clock seconds played `into` a play phase, and whether the clock runs: it runs
        one second a second, and stands still in stoppages."""
        runs = self._runs(phase)
        i = bisect.bisect_right(runs, (into, math.inf, math.inf)) - 1
        if i < 0:
            return 0.0, False
        start, before, length = runs[i]
        if into - start < length:
            return before + (into - start), True
        return before + length, False

    def _runs(self, phase: Phase) -> list[tuple[float, float, float]]:
        """The clock's runs in a play phase, drawn once from the match's seed and the phase.
        A phase whose clock covers its whole length (football) is one run; one with stoppages
        (basketball, hockey) alternates runs of RUN_MIN-RUN_MAX game seconds with stoppages
        that share the rest of its length."""
        if phase.runs is not None:
            return phase.runs
        added = phase.injury * 60.0  # added time runs on without stoppages, after the last one
        covered = phase.game
        stopped = phase.real - covered - added
        if stopped < 1.0:
            phase.runs = [(0.0, 0.0, phase.real)]
            return phase.runs
        rng = random.Random(mix(self.seed, int(phase.start), phase.period))
        lengths: list[float] = []
        left = covered
        while left > 0:
            run = left if left < 2 * RUN_MIN else rng.uniform(RUN_MIN, min(RUN_MAX, left - RUN_MIN))
            lengths.append(run)
            left -= run
        # The stoppages fall between runs (before the first when there is one run), so the
        # period ends with its clock running out.
        weights = [rng.random() + 0.2 for _ in range(max(1, len(lengths) - 1))]
        scale = stopped / sum(weights)
        gaps = [max(MIN_STOPPAGE, weight * scale) for weight in weights]
        at = gaps.pop() if len(lengths) == 1 else 0.0
        runs, before = [], 0.0
        for run in lengths:
            runs.append((at, before, run))
            at += run + (gaps.pop() if gaps else 0.0)
            before += run
        start, before, run = runs[-1]
        runs[-1] = (start, before, run + added)
        phase.runs = runs
        return runs

    def _played_before(self) -> float:
        """Time spent in play phases before the current one: an untimed sport's clock counts
        play only, so it stands still in a break instead of jumping when play resumes."""
        return sum(p.real for p in self.phases[: self._index] if p.kind == PLAY)

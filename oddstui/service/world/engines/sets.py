"""Matches played in sets of units: tennis and padel (points, games, sets), rally sports
(volleyball, table tennis, badminton, squash), darts (legs in sets), snooker (frames) and
esports (rounds in maps).

Score keys: `p1..` (games, points or legs of each set; frame points in snooker) or `map1..`
(rounds per map, CS2 rules), `currentgame` while a tennis game is in progress, and `ft` at the
end. The set in play always has its key (0-0 when it starts). The top-level score counts sets
(frames, maps) won.
"""

from __future__ import annotations

from oddstui.service.world.engines.base import Engine, ordinal
from oddstui.service.world.model import Clock, Scores
from oddstui.service.world.sports import SportSpec

TENNIS_POINTS = (0, 15, 30, 40, 50)  # 50 stands for advantage
POINT_CAPS = {"badminton": 30}  # a game ends at this many points even without a 2-point lead


class UnitEngine(Engine):
    """Rally sets, darts legs, snooker frames and esports maps."""

    def __init__(
        self, spec: SportSpec, seed: int, scores: Scores, rating: float, knockout: bool
    ) -> None:
        super().__init__(spec, seed, scores, rating, knockout)
        kind = spec.engine
        self.sets_to_win = spec.periods // 2 + 1
        self.key_prefix = "map" if kind == "maps" else "p"
        if kind == "legs":
            self._targets, self._win_by = (3, 3), 1
        elif kind == "frames":
            self._targets, self._win_by = (1, 1), 1
        elif kind == "maps":
            self._targets, self._win_by = (13, 13), 2
        else:
            self._targets = (int(spec.extra.get("to", 25)), int(spec.extra.get("last_to", 15)))
            self._win_by = 2
        self._p_home = self._home_share(1.0 if kind in ("frames", "legs") else 0.25)
        self.set_index = 1
        self.units = [0, 0]  # in the current set
        self.server = 0 if self.rng.random() < 0.5 else 1
        self._first_server = self.server  # of the current game or set
        self._resume_at = 0.0  # when play resumes after a break between sets
        self._paused = 0.0  # seconds of breaks so far, the current one whole
        self._next_at = spec.real_s * self._jitter()
        self._progress = 0.0
        self._set_period(self._key(1), 0, 0)

    def _jitter(self) -> float:
        return 0.6 + 0.8 * self.rng.random()

    def _key(self, index: int) -> str:
        return f"{self.key_prefix}{index}"

    def _target(self) -> int:
        last = self.set_index == self.spec.periods
        return self._targets[1] if last else self._targets[0]

    def _run_until(self, t: float) -> None:
        while not self.finished and self._next_at <= t:
            self._play_unit(self._next_at)
            self._note_progress()

    def _play_unit(self, at: float) -> None:
        p = self._p_home
        if self.spec.engine == "legs":
            p += 0.12 if self.server == 0 else -0.12  # the thrower's advantage
        winner = 0 if self.rng.random() < p else 1
        self.units[winner] += 1
        if self.spec.slug == "table-tennis":
            # Two serves each, then one each from 10-10.
            played = sum(self.units)
            if played % 2 == 0 or min(self.units) >= 10:
                self.server = 1 - self.server
        elif self.spec.engine == "rally":
            self.server = winner  # rally scoring: the winner of the rally serves
        elif self.spec.engine == "legs":
            self.server = 1 - self.server  # the throw alternates leg by leg
        key = self._key(self.set_index)
        if self.spec.engine == "frames":
            high = self.rng.randint(60, 110)
            self._set_period(key, *((high, self.rng.randint(0, 59)) if winner == 0
                                    else (self.rng.randint(0, 59), high)))
        else:
            self._set_period(key, self.units[0], self.units[1])
        if self._unit_set_won(self.units[winner], self.units[1 - winner]):
            self._add_total(*((1, 0) if winner == 0 else (0, 1)))
            if max(self.scores.home, self.scores.away) >= self.sets_to_win:
                self._set_period("ft", self.scores.home, self.scores.away)
                self.finished = True
                self.ended_at = at
                return
            self.set_index += 1
            self.units = [0, 0]
            if self.spec.slug == "table-tennis" or self.spec.engine == "legs":
                # Who serves (throws) first alternates from game to game, set to set.
                self.server = self._first_server = 1 - self._first_server
            # The next set (frame, map) shows at 0-0 from now on, so that the clock's period
            # always has its score key.
            self._set_period(self._key(self.set_index), 0, 0)
            self._resume_at = at + self.spec.break_s  # the clock stops between sets
            self._paused += self.spec.break_s
            self._next_at = self._resume_at + self.spec.real_s * self._jitter()
            return
        self._next_at = at + self.spec.real_s * self._jitter()

    def _note_progress(self) -> None:
        # The estimate's denominator grows when a match runs long, which would pull it back;
        # prices read progress as time passed, so it only ever moves forward.
        self._progress = max(self._progress, self._estimate_progress())

    def _unit_set_won(self, won: int, lost: int) -> bool:
        """Whether the side on `won` units has taken the set (frame, map) against `lost`."""
        target = self._target()
        if self.spec.engine == "maps":
            # CS2: first to 13; from 12-12, overtimes of six rounds, each won with four.
            if lost <= 11:
                return won == target
            return won - (12 + 3 * ((lost - 12) // 3)) >= 4
        if won == POINT_CAPS.get(self.spec.slug, 0):  # badminton: at 29-29 the 30th point wins
            return True
        return won >= target and won - lost >= self._win_by

    @property
    def progress(self) -> float:
        return 1.0 if self.finished else self._progress

    def _estimate_progress(self) -> float:
        played = self.scores.home + self.scores.away
        target = max(self._target(), 1)
        share = min(0.95, max(self.units) / target)
        return min(1.0, (played + share) / max(self.spec.total, played + 1.0))

    def _clock(self) -> Clock | None:
        word = self.spec.period_word
        label = f"Map {self.set_index}" if word == "map" else f"{ordinal(self.set_index)} {word}"
        serve = None
        if self.spec.individual and self.spec.engine in ("rally", "legs"):
            serve = "home" if self.server == 0 else "away"
        played = _played(self.elapsed, self._resume_at, self._paused)
        running = self.elapsed >= self._resume_at
        return Clock(played // 60 + 1, played, self.set_index, running, label, 0, serve)


class TennisEngine(Engine):
    """Points, games with deuce, sets with a tie-break at 6-6; best of 3 or 5 sets."""

    def __init__(
        self, spec: SportSpec, seed: int, scores: Scores, rating: float, knockout: bool
    ) -> None:
        super().__init__(spec, seed, scores, rating, knockout)
        best_of = 5 if knockout and spec.slug == "tennis" else 3
        self.sets_to_win = best_of // 2 + 1
        self.best_of = best_of
        edge = (self._home_share(0.6) - 0.5) * 0.3
        self._serve_win = (0.63 + edge, 0.63 - edge)  # chance the server wins a point
        self.set_index = 1
        self.games = [0, 0]
        self.points = [0, 0]
        self.server = 0 if self.rng.random() < 0.5 else 1
        self.tiebreak = False
        self._tb_served = 0
        self._tb_first = 0  # who served the first point of the tie-break
        self._next_at = self._point_time()
        self._resume_at = 0.0  # when play resumes after a break between sets
        self._paused = 0.0  # seconds of breaks so far, the current one whole
        self._progress = 0.0
        self._set_period("p1", 0, 0)
        self._set_period("currentgame", 0, 0)

    def _point_time(self) -> float:
        return self.spec.real_s * (0.5 + self.rng.random())

    def _run_until(self, t: float) -> None:
        while not self.finished and self._next_at <= t:
            self._play_point(self._next_at)
            self._progress = max(self._progress, self._estimate_progress())  # see UnitEngine

    def _play_point(self, at: float) -> None:
        win_server = self.rng.random() < self._serve_win[self.server]
        winner = self.server if win_server else 1 - self.server
        self.points[winner] += 1
        gap = self._point_time()
        if self.tiebreak:
            self._tb_served += 1
            if self._tb_served % 2 == 1:
                self.server = 1 - self.server
            lead = self.points[winner] - self.points[1 - winner]
            if self.points[winner] >= 7 and lead >= 2:
                gap += self._win_game(winner, at)
            else:
                self._set_period("currentgame", self.points[0], self.points[1])
        else:
            won, lost = self.points[winner], self.points[1 - winner]
            if won >= 4 and won - lost >= 2:
                gap += self._win_game(winner, at)
            else:
                if won >= 4 and lost >= 3 and won - lost == 0:
                    self.points = [3, 3]
                self._set_period("currentgame", *self._display_points())
        self._next_at = at + gap
        if self.finished:
            self.ended_at = at

    def _display_points(self) -> tuple[int, int]:
        h, a = self.points
        if h >= 3 and a >= 3:
            if h == a:
                return 40, 40
            return (50, 40) if h > a else (40, 50)
        return TENNIS_POINTS[h], TENNIS_POINTS[a]

    def _win_game(self, winner: int, at: float) -> float:
        """Close the game; returns the extra pause (changeover or set break)."""
        self.games[winner] += 1
        self.points = [0, 0]
        was_tiebreak = self.tiebreak
        self.tiebreak = False
        if was_tiebreak:
            # The player who served first in the tie-break receives first in the next set.
            self.server = 1 - self._tb_first
        else:
            self.server = 1 - self.server
        self._set_period(f"p{self.set_index}", self.games[0], self.games[1])
        won, lost = self.games[winner], self.games[1 - winner]
        if was_tiebreak or (won >= 6 and won - lost >= 2):
            self._add_total(*((1, 0) if winner == 0 else (0, 1)))
            if max(self.scores.home, self.scores.away) >= self.sets_to_win:
                self.scores.periods.pop("currentgame", None)
                self._set_period("ft", self.scores.home, self.scores.away)
                self.finished = True
                return 0.0
            self.set_index += 1
            self.games = [0, 0]
            self.scores.periods.pop("currentgame", None)  # kept after the sets, in play order
            self._set_period(f"p{self.set_index}", 0, 0)
            self._set_period("currentgame", 0, 0)
            self._resume_at = at + self.spec.break_s  # the clock stops between sets
            self._paused += self.spec.break_s
            return self.spec.break_s
        if self.games == [6, 6]:
            self.tiebreak = True
            self._tb_served = 0
            self._tb_first = self.server
        self._set_period("currentgame", 0, 0)
        return 90.0 if sum(self.games) % 2 == 1 else 0.0

    @property
    def progress(self) -> float:
        return 1.0 if self.finished else self._progress

    def _estimate_progress(self) -> float:
        played = self.scores.home + self.scores.away
        share = min(0.95, sum(self.games) / 12)
        expected = max(self.sets_to_win + 0.4, played + 1.0)
        return min(1.0, (played + share) / expected)

    def _clock(self) -> Clock | None:
        played = _played(self.elapsed, self._resume_at, self._paused)
        label = f"{ordinal(self.set_index)} set" + (" tie-break" if self.tiebreak else "")
        serve = "home" if self.server == 0 else "away"
        running = self.elapsed >= self._resume_at
        return Clock(played // 60 + 1, played, self.set_index, running, label, 0, serve)


def _played(elapsed: float, resume_at: float, paused: float) -> int:
    """Seconds of play, breaks between sets left out: the clock stands still in a break (a
    stopped clock that advanced would jump when play resumed)."""
    return int(elapsed - paused + max(0.0, resume_at - elapsed))

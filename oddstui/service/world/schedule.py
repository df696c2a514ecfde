"""Fixtures: when each sport's matches start, between whom, quoted by which bookmakers.

Each sport has a kickoff interval chosen so that about `live_target` of its matches are live at
any moment (duration / interval). The past is thinner (historical data), the future runs to the
sport's horizon, and `Scheduler.extend(now)` keeps adding fixtures as time passes.
"""

from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass

from oddstui.service.world.catalog import Catalog
from oddstui.service.world.engines import make_engine
from oddstui.service.world.sports import SPORT_BY_SLUG, SPORTS, SportSpec
from oddstui.service.world.truth import mix

DAY = 86400.0
HISTORY_DAYS = 45.0
HISTORY_THINNING = 25.0  # past fixtures are this many times sparser
FAR_AFTER = 7 * DAY  # beyond this, fixtures are half as dense (not all are published yet)
CANCEL_SHARE = 0.02
FIRST_EVENT_ID = 61_000_000
BOOKS_PER_EVENT = {
    "football": (22, 60), "basketball": (20, 55), "tennis": (18, 50), "ice-hockey": (18, 50),
    "esports": (12, 40), "baseball": (15, 45), "american-football": (20, 55),
    "handball": (12, 38), "volleyball": (12, 36), "darts": (12, 36), "table-tennis": (10, 30),
}
DEFAULT_BOOKS = (10, 28)


def sport_duration(spec: SportSpec) -> float:
    """The mean simulated length of a match, from a few played-out engines."""
    return _duration(spec.slug)


@functools.cache
def _duration(slug: str) -> float:
    spec = SPORT_BY_SLUG[slug]
    total = 0.0
    for seed in range(6):
        engine = make_engine(spec, 1000 + seed, rating=0.0, knockout=False)
        engine.play_out()
        total += engine.ended_at or engine.elapsed
    return total / 6


@dataclass(slots=True)
class Fixture:
    """A planned match, before it becomes an Event."""

    start: float
    sport: str
    league: str
    home: int
    away: int
    z: float  # home edge in standard deviations
    books: list[str]
    open_ts: float  # when its quotes opened
    cancel_at: float | None  # when it gets called off, if it does


class Scheduler:
    def __init__(self, catalog: Catalog, seed: int, start: float) -> None:
        self.catalog = catalog
        self.seed = seed
        self.start = start
        self.durations = {s.slug: sport_duration(s) for s in SPORTS}
        self._rngs = {s.slug: random.Random(mix(seed, 7, i)) for i, s in enumerate(SPORTS)}
        self._next: dict[str, float] = {}
        self._last_event_id = FIRST_EVENT_ID
        active = [b for b in catalog.bookmakers.values() if b.active]
        defaults = set(catalog.default_selection)
        others = [b.name for b in active if b.name not in defaults]
        self._known = others[:70]
        self._rest = others[70:]
        self._order = {name: i for i, name in enumerate(catalog.bookmakers)}

    def interval(self, spec: SportSpec) -> float:
        return self.durations[spec.slug] / spec.live_target

    def initial(self) -> list[Fixture]:
        """Fixtures from 45 days ago to each sport's horizon, in start order."""
        out: list[Fixture] = []
        for spec in SPORTS:
            rng = self._rngs[spec.slug]
            step = self.interval(spec)
            duration = self.durations[spec.slug]
            t = self.start - HISTORY_DAYS * DAY
            live_from = self.start - duration * 1.2
            while t < live_from:
                out.append(self._fixture(spec, rng, t, historical=True))
                t += step * HISTORY_THINNING * rng.uniform(0.5, 1.5)
            t = live_from + step * rng.uniform(0.0, 0.5)
            horizon = self.start + spec.horizon_days * DAY
            while t < horizon:
                out.append(self._fixture(spec, rng, t, historical=False))
                t += self._gap(spec, rng, t - self.start)
            self._next[spec.slug] = t
        # Someone always kicks off within the next five minutes.
        soon_rng = random.Random(mix(self.seed, 99))
        for spec in (SPORTS[0], SPORTS[2], SPORTS[13]):
            out.append(self._fixture(spec, soon_rng, self.start + soon_rng.uniform(60, 280),
                                     historical=False))
        out.sort(key=lambda f: f.start)
        return out

    def extend(self, now: float) -> list[Fixture]:
        """New fixtures whose start has come within their sport's horizon."""
        out: list[Fixture] = []
        for spec in SPORTS:
            horizon = now + spec.horizon_days * DAY
            t = self._next[spec.slug]
            rng = self._rngs[spec.slug]
            while t < horizon:
                if t > now + 600.0:  # after a jump in time, slots already past are skipped
                    out.append(self._fixture(spec, rng, t, historical=False, created=now))
                t += self._gap(spec, rng, t - now)
            self._next[spec.slug] = t
        out.sort(key=lambda f: f.start)
        return out

    def _gap(self, spec: SportSpec, rng: random.Random, ahead: float) -> float:
        """The time to the next kickoff of the sport, `ahead` seconds from now."""
        return self.interval(spec) * rng.uniform(0.6, 1.4) * (2.0 if ahead > FAR_AFTER else 1.0)

    def next_event_id(self) -> int:
        self._last_event_id += 1 + mix(self.seed, self._last_event_id) % 9
        return self._last_event_id

    def _fixture(
        self, spec: SportSpec, rng: random.Random, start: float, historical: bool,
        created: float | None = None,
    ) -> Fixture:
        league = rng.choice(spec.leagues)[0]
        members = self.catalog.league_members[league]
        home, away = rng.sample(members, 2)
        if not spec.individual and spec.engine != "race":
            start = math.floor(start / 300.0) * 300.0  # kick-offs on the five minutes
        z = rng.gauss(0.0, spec.rating_sd)
        if created is None:
            lead = rng.uniform(3.0, 8.0) * DAY if start - self.start < 7 * DAY \
                else rng.uniform(0.5, 2.5) * DAY
            open_ts = min(start - lead, self.start - 3 * 3600.0) if not historical \
                else start - lead
        else:
            open_ts = created
        cancel_at = None
        if rng.random() < CANCEL_SHARE:
            begin = max(open_ts, created or self.start)
            if historical:
                cancel_at = start - rng.uniform(60.0, 3 * DAY)
            elif start - begin > 600:
                cancel_at = rng.uniform(begin + 60, start - 300)
        return Fixture(start, spec.slug, league, home, away, z, self._books(spec, rng), open_ts,
                       cancel_at)

    def _books(self, spec: SportSpec, rng: random.Random) -> list[str]:
        low, high = BOOKS_PER_EVENT.get(spec.slug, DEFAULT_BOOKS)
        count = rng.randint(low, high)
        chosen = [b for b in self.catalog.default_selection if rng.random() < 0.97]
        room = max(0, count - len(chosen))
        known = min(len(self._known), int(room * 0.6))
        chosen += rng.sample(self._known, known)
        chosen += rng.sample(self._rest, min(len(self._rest), room - known))
        chosen.sort(key=self._order.__getitem__)
        return chosen

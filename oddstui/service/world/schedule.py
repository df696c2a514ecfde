"""Fixtures: a pure function of the seed and the calendar.

The time line is cut into UTC days. Each day's fixtures of every sport are drawn from
`(seed, day)` alone, so a world started at any moment sees the same fixture under the same id
and kick-off. Within a day:
- each sport kicks off about every `duration / live_target` seconds (so about `live_target` of
  its matches are live at any moment); team-sport kick-offs lie on the five minutes;
- a gap of more than `MAX_QUIET` seconds between two kick-offs of the whole world gets a
  table-tennis match, so something always kicks off within the next five minutes;
- a participant plays at most once a day, and never on two days running: on a given day only
  the half of a league whose place in the league has the day's parity plays (so a match late on
  one day never overlaps one early the next).

A fixture is published (the event appears) at `publish_ts`, some days before its kick-off (the
further off, the fewer are published yet); its prices opened at `open_ts`, 3 to 8 days before.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from oddstui.service.world.catalog import Catalog
from oddstui.service.world.durations import MEAN_DURATIONS, measured_duration
from oddstui.service.world.sports import SPORTS, SportSpec
from oddstui.service.world.truth import mix

DAY = 86400.0
HISTORY_DAYS = 45.0
HISTORY_KEEP = 25  # settled fixtures older than RECENT_PAST: one in this many is kept
RECENT_PAST = 1.5 * DAY
CANCEL_SHARE = 0.02
MAX_QUIET = 270.0  # the longest stretch without a kick-off anywhere
FILLER_SPORT = "table-tennis"
FIRST_EVENT_ID = 61_000_000
ID_EPOCH_DAY = 18_262  # 2020-01-01: event ids count days from here
FILLER_SLOTS = 400
LEAGUE_SLACK = 1.3  # league sizes leave this much room over the day's fixtures
BOOKS_PER_EVENT = {
    "football": (22, 60), "basketball": (20, 55), "tennis": (18, 50), "ice-hockey": (18, 50),
    "esports": (12, 40), "baseball": (15, 45), "american-football": (20, 55),
    "handball": (12, 38), "volleyball": (12, 36), "darts": (12, 36), "table-tennis": (10, 30),
}
DEFAULT_BOOKS = (10, 28)
BOOK_SETS = 31  # the different sets of bookmakers a sport's fixtures are quoted by


def sport_duration(spec: SportSpec) -> float:
    """The mean simulated length of a match, from a few played-out engines."""
    return _duration(spec.slug)


@functools.cache
def _duration(slug: str) -> float:
    known = MEAN_DURATIONS.get(slug)
    return known if known is not None else measured_duration(slug)


def interval(spec: SportSpec) -> float:
    """The mean time between two kick-offs of the sport."""
    return sport_duration(spec) / spec.live_target


def _max_per_day(spec: SportSpec) -> int:
    """An upper bound on a sport's fixtures in a day (gaps are at least 0.6 intervals)."""
    return int(DAY / (interval(spec) * 0.6)) + 2


def league_sizes() -> dict[str, int]:
    """Members per league of each sport, so that half a league (the day's parity) covers a day
    of fixtures with room to spare."""
    sizes = {}
    for spec in SPORTS:
        per_day = DAY / interval(spec)
        if spec.slug == FILLER_SPORT:
            per_day += DAY / MAX_QUIET / 4  # room for the fillers
        per_league = per_day / len(spec.leagues)
        sizes[spec.slug] = max(10, math.ceil(per_league * 4 * LEAGUE_SLACK))
    return sizes


@dataclass(slots=True)
class Fixture:
    """A planned match, before it becomes an Event."""

    id: int
    start: float
    sport: str
    league: str
    home: int
    away: int
    z: float  # home edge in standard deviations
    publish_ts: float  # when it is listed (the event appears)
    open_ts: float  # when its prices opened (at or before it was listed)
    cancel_at: float | None  # when it gets called off, if it does
    books: list[str] = field(default_factory=list)


class Scheduler:
    def __init__(self, catalog: Catalog, seed: int) -> None:
        self.catalog = catalog
        self.seed = seed
        self.durations = {s.slug: sport_duration(s) for s in SPORTS}
        self._index = {s.slug: i for i, s in enumerate(SPORTS)}
        offsets, total = {}, 0
        for spec in SPORTS:
            offsets[spec.slug] = total
            total += _max_per_day(spec)
        self._id_offsets = offsets
        self._filler_offset = total
        self._stride = total + FILLER_SLOTS
        active = [b for b in catalog.bookmakers.values() if b.active]
        defaults = set(catalog.default_selection)
        others = [b.name for b in active if b.name not in defaults]
        self._known = others[:70]
        self._rest = others[70:]
        self._order = {name: i for i, name in enumerate(catalog.bookmakers)}
        self._parent = {b.name: b.sister_of for b in catalog.bookmakers.values() if b.sister_of}
        self._book_sets: dict[str, list[list[str]]] = {}
        self.horizon = max(s.horizon_days for s in SPORTS) * DAY

    # -- days -----------------------------------------------------------------------------
    def day(self, day: int, keep: Callable[[int], bool] | None = None) -> list[Fixture]:
        """Every fixture kicking off on UTC day `day` (days since 1970), in kick-off order;
        only those whose id `keep` accepts, when given (the rest cost next to nothing)."""
        begin = day * DAY
        times: dict[str, list[float]] = {}
        for spec in SPORTS:
            rng = random.Random(mix(self.seed, 7, self._index[spec.slug], day))
            step = interval(spec)
            t = begin + step * rng.random()
            slots: list[float] = []
            cap = _max_per_day(spec)
            team = not spec.individual and spec.engine != "race"
            while t < begin + DAY and len(slots) < cap:
                # team sports kick off on the five minutes
                slots.append(max(begin, math.floor(t / 300.0) * 300.0) if team else t)
                t += step * (0.6 + 0.8 * rng.random())
            times[spec.slug] = slots
        fillers = self._fillers(day, times)
        out: list[Fixture] = []
        for spec in SPORTS:
            base = FIRST_EVENT_ID + (day - ID_EPOCH_DAY) * self._stride
            kickoffs = [(t, base + self._id_offsets[spec.slug] + k)
                        for k, t in enumerate(times[spec.slug])]
            if spec.slug == FILLER_SPORT:  # the fillers share the sport's day and players
                kickoffs += [(t, base + self._filler_offset + k) for k, t in enumerate(fillers)]
                kickoffs.sort()
            out += self._pair(spec, day, kickoffs, keep)
        out.sort(key=lambda f: (f.start, f.id))
        return out

    def day_of_id(self, event_id: int) -> int:
        """The UTC day (days since 1970) on which the fixture with this id kicks off, were
        there one: ids count days from ID_EPOCH_DAY, `stride` ids a day."""
        return ID_EPOCH_DAY + (event_id - FIRST_EVENT_ID) // self._stride

    def kept_in_history(self, event_id: int) -> bool:
        """Whether a fixture long past is kept as historical data (the rest are forgotten)."""
        return _hash(self.seed, event_id, 4) % HISTORY_KEEP == 0

    def _fillers(self, day: int, times: dict[str, list[float]]) -> list[float]:
        """Kick-offs that fill every quiet stretch of the day longer than MAX_QUIET (the day's
        first and last kick-offs lie within MAX_QUIET / 2 of its ends, so no stretch across
        midnight is longer either)."""
        begin = day * DAY
        half = MAX_QUIET / 2
        starts = sorted(t for slots in times.values() for t in slots)
        rng = random.Random(mix(self.seed, 8, day))
        fillers: list[float] = []
        last = begin - half
        for t in [*starts, begin + DAY + half]:
            while t - last > MAX_QUIET and len(fillers) < FILLER_SLOTS:
                last = max(begin, last + (0.4 + 0.5 * rng.random()) * MAX_QUIET)
                if last >= begin + DAY:
                    break
                fillers.append(last)
            last = max(last, t)
        return fillers

    def _pair(self, spec: SportSpec, day: int, slots: list[tuple[float, int]],
              keep: Callable[[int], bool] | None) -> list[Fixture]:
        """League and participants of each (kick-off, id): the day's half of the league,
        in a day's order, taken two by two in kick-off order (when a league has no pair left,
        the next one with room takes the kick-off)."""
        leagues = [slug for slug, _name, _ko in spec.leagues]
        sport_index = self._index[spec.slug]
        capacity = [len(self.catalog.league_members[lg]) // 4 for lg in leagues]
        taken = [0] * len(leagues)
        halves: dict[int, tuple[list[int], int, int]] = {}
        out = []
        for start, event_id in slots:
            which = _hash(self.seed, event_id, 9) % len(leagues)
            for _ in range(len(leagues)):
                if taken[which] < capacity[which]:
                    break
                which = (which + 1) % len(leagues)
            else:
                continue  # every league has played its day
            pair = taken[which]
            taken[which] += 1
            if keep is not None and not keep(event_id):
                continue
            found = halves.get(which)
            if found is None:
                members = self.catalog.league_members[leagues[which]]
                half = members[day % 2::2]
                # The day's order of the half: an affine permutation i -> (a + b i) mod n.
                h = _hash(self.seed, 10, sport_index, which, day)
                found = halves[which] = (half, h % len(half), _coprime(len(half), h >> 8))
            half, a, b = found
            n = len(half)
            out.append(self._fixture(spec, event_id, start, leagues[which],
                                     half[(a + b * 2 * pair) % n],
                                     half[(a + b * (2 * pair + 1)) % n]))
        return out

    def _fixture(self, spec: SportSpec, event_id: int, start: float, league: str, home: int,
                 away: int) -> Fixture:
        seed = self.seed
        z = spec.rating_sd * _normal(_unit(seed, event_id, 1), _unit(seed, event_id, 2))
        # Listed between half the sport's horizon and all of it before kick-off; its prices
        # opened 3 to 8 days before kick-off, or when listed if that was earlier.
        publish_ts = start - spec.horizon_days * DAY * (0.5 + 0.5 * _unit(seed, event_id, 3))
        open_ts = min(publish_ts, start - DAY * (3.0 + 5.0 * _unit(seed, event_id, 7)))
        cancel_at = None
        if _unit(seed, event_id, 5) < CANCEL_SHARE:
            cancel_at = publish_ts + (start - 300.0 - publish_ts) * _unit(seed, event_id, 6)
        return Fixture(event_id, start, spec.slug, league, home, away, z, publish_ts, open_ts,
                       cancel_at)

    def books(self, fixture: Fixture) -> list[str]:
        """The bookmakers that quote a fixture: one of its sport's `BOOK_SETS` sets, by id (the
        list is shared: never mutate it)."""
        sets = self._book_sets.get(fixture.sport)
        if sets is None:
            rng = random.Random(mix(self.seed, 3, self._index[fixture.sport]))
            sets = self._book_sets[fixture.sport] = [
                self._draw_books(fixture.sport, rng) for _ in range(BOOK_SETS)]
        return sets[_hash(self.seed, fixture.id, 3) % BOOK_SETS]

    def _draw_books(self, sport: str, rng: random.Random) -> list[str]:
        low, high = BOOKS_PER_EVENT.get(sport, DEFAULT_BOOKS)
        count = rng.randint(low, high)
        chosen = [b for b in self.catalog.default_selection if rng.random() < 0.97]
        room = max(0, count - len(chosen))
        known = min(len(self._known), int(room * 0.6))
        chosen += rng.sample(self._known, known)
        chosen += rng.sample(self._rest, min(len(self._rest), room - known))
        chosen.sort(key=self._order.__getitem__)
        # A white label quotes only what its parent quotes: it has nothing else to copy.
        drawn = set(chosen)
        return [b for b in chosen if self._parent.get(b, b) in drawn]


def _hash(*values: int) -> int:
    """A fast deterministic hash of integers (a tuple of ints hashes the same in every run)."""
    return hash(values) & 0xFFFFFFFF


def _unit(*values: int) -> float:
    return _hash(*values) / 4294967296.0


def _coprime(n: int, h: int) -> int:
    """A step in 1..n-1 coprime with n, chosen by `h` (1 when n < 3)."""
    if n < 3:
        return 1
    b = 1 + h % (n - 1)
    while math.gcd(b, n) != 1:
        b = 1 + b % (n - 1)
    return b


def _normal(u1: float, u2: float) -> float:
    """A standard normal number from two uniform ones (Box-Muller)."""
    return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)


def day_of(ts: float) -> int:
    return math.floor(ts / DAY)

"""The clock text a trader reads at a glance, per sport, from the wire's clock fields.

The wire gives every live sport the same clock (minute, playedSeconds, period, running,
statusDetail, injuryTime); each sport reads it its own way:

| style | sports | text |
|---|---|---|
| up | football, rugby, bandy, gaelic football | `45+2'`, `67'` |
| down | basketball, hockey, American football, handball... | `Q4 7:12`, `P3 12:40`, `H2 14:05` |
| innings | baseball | `▲7` / `▼7` |
| ends | curling | `End 7` |
| overs | cricket | `14.3 ov` |
| sets | tennis, volleyball, badminton, darts, snooker, esports | `S2 4-3`, `G3 18-15`, `M2 8-5` |
| hole | golf | `Hole 12` |
| rounds | boxing, MMA | `R3 2:14` (the round counting down) |
| race | athletics, cycling, cross-country | `14:05` elapsed |

`playedSeconds` counts game-clock seconds from kick-off, all periods together (a service that
counts each period from zero is recognised too). The period lengths are the sports' usual ones,
which the built-in world plays; the desk never asks the service for them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UP, DOWN, INNINGS, ENDS, OVERS, SETS, HOLE, ROUNDS, RACE = (
    "up",
    "down",
    "innings",
    "ends",
    "overs",
    "sets",
    "hole",
    "rounds",
    "race",
)


@dataclass(frozen=True, slots=True)
class SportClock:
    """How one sport's clock reads: `period_s` game seconds a period, `periods` in regulation,
    `overtime_s` an overtime period, `prefix` the letter before the period number."""

    style: str
    period_s: int = 0
    periods: int = 0
    overtime_s: int = 0
    prefix: str = ""
    scoring: str = "goal"  # what a score change is called in an alert


SPORT_CLOCKS: dict[str, SportClock] = {
    "football": SportClock(UP, 2700, 2, 900),
    "rugby": SportClock(UP, 2400, 2, 600, scoring="score"),
    "bandy": SportClock(UP, 2700, 2, 900),
    "gaelic-football": SportClock(UP, 2100, 2, 600, scoring="score"),
    "basketball": SportClock(DOWN, 720, 4, 300, "Q", "basket"),
    "ice-hockey": SportClock(DOWN, 1200, 3, 300, "P"),
    "american-football": SportClock(DOWN, 900, 4, 600, "Q", "score"),
    "handball": SportClock(DOWN, 1800, 2, 300, "H"),
    "futsal": SportClock(DOWN, 1200, 2, 300, "H"),
    "water-polo": SportClock(DOWN, 480, 4, 180, "Q"),
    "lacrosse": SportClock(DOWN, 900, 4, 240, "Q"),
    "aussie-rules": SportClock(DOWN, 1200, 4, 300, "Q", "score"),
    "floorball": SportClock(DOWN, 1200, 3, 600, "P"),
    "beach-soccer": SportClock(DOWN, 720, 3, 180, "P"),
    "beach-handball": SportClock(DOWN, 600, 2, 300, "S", "point"),
    "baseball": SportClock(INNINGS, 1200, 9, 1200, scoring="run"),
    "curling": SportClock(ENDS, scoring="point"),
    "cricket": SportClock(OVERS, 5400, 2, 300, scoring="run"),
    "tennis": SportClock(SETS, prefix="S", scoring="set"),
    "padel": SportClock(SETS, prefix="S", scoring="set"),
    "volleyball": SportClock(SETS, prefix="S", scoring="set"),
    "beach-volleyball": SportClock(SETS, prefix="S", scoring="set"),
    "badminton": SportClock(SETS, prefix="G", scoring="game"),
    "table-tennis": SportClock(SETS, prefix="G", scoring="game"),
    "squash": SportClock(SETS, prefix="G", scoring="game"),
    "darts": SportClock(SETS, prefix="S", scoring="set"),  # the set and its legs
    "snooker": SportClock(SETS, prefix="F", scoring="frame"),  # the frame and its points
    "esports": SportClock(SETS, prefix="M", scoring="map"),  # the map and its rounds
    "golf": SportClock(HOLE, 14400, scoring="score"),
    "boxing": SportClock(ROUNDS, 180, 12, scoring="score"),
    "mixed-martial-arts": SportClock(ROUNDS, 300, 3, scoring="score"),
    "athletics": SportClock(RACE, scoring="result"),
    "cross-country": SportClock(RACE, scoring="result"),
    "cycling": SportClock(RACE, scoring="result"),
}
#: A sport not in the table: its clock counts up, `mm:ss`.
UNKNOWN = SportClock(RACE, scoring="score")

#: Overs in a limited-overs innings, and balls in an over.
OVERS_PER_INNINGS, BALLS_PER_OVER = 20, 6
HOLES = 18

_OVERS = re.compile(r"(\d+(?:\.\d)?)\s*ov", re.IGNORECASE)
_HOLE = re.compile(r"(?:hole|thru)\s*(\d+)", re.IGNORECASE)
_HALFTIME = re.compile(r"half[\s-]?time", re.IGNORECASE)


def sport_clock(sport: str) -> SportClock:
    return SPORT_CLOCKS.get(sport, UNKNOWN)


def scoring_word(sport: str) -> str:
    """What a score change is called in the sport: goal, basket, run, set, game, point..."""
    return sport_clock(sport).scoring


#: Counting-up sports whose clock still stops for play (the count-down ones all do).
_STOPPING_UP = frozenset({"rugby", "gaelic-football"})


def clock_stops(sport: str) -> bool:
    """True for the sports whose game clock stands in stoppages (basketball, hockey, rugby...):
    between two readings such a clock can only be estimated, unless the service tells when it
    stops and starts."""
    return sport_clock(sport).style == DOWN or sport in _STOPPING_UP


def shows_clock(sport: str) -> bool:
    """False for the sports whose text is a score (sets, legs, frames), not a time."""
    return sport_clock(sport).style not in (SETS, INNINGS, ENDS)


def period_start(spec: SportClock, period: int) -> int:
    """Game seconds played before `period` starts (overtime periods after regulation)."""
    regulation = min(period - 1, spec.periods)
    extra = max(period - 1 - spec.periods, 0)
    return regulation * spec.period_s + extra * spec.overtime_s


def period_length(spec: SportClock, period: int) -> int:
    return spec.period_s if period <= spec.periods else spec.overtime_s or spec.period_s


def into_period(spec: SportClock, period: int, played: int) -> int:
    """Seconds played in the period; a service that counts each period from zero is read as is."""
    start = period_start(spec, period)
    return played - start if played >= start else played


def clock_text(
    sport: str,
    period: int,
    played: int,
    running: bool,
    status_detail: str = "",
    periods: dict[str, tuple[int, int]] | None = None,
) -> str:
    """The clock of a live match as the desk shows it; `played` is the (extrapolated)
    playedSeconds. Empty when there is nothing honest to show."""
    spec = sport_clock(sport)
    period = max(period, 1)
    played = max(played, 0)
    if not running and _HALFTIME.search(status_detail or ""):
        return "HT"
    style = spec.style
    if not running and style in (UP, DOWN, ROUNDS) and "break" in (status_detail or "").casefold():
        return "Break"  # between periods: the last period's 0:00 would read as play
    if style == UP:
        return _count_up(spec, period, played)
    if style in (DOWN, ROUNDS):
        remaining = period_length(spec, period) - into_period(spec, period, played)
        label = f"R{period}" if style == ROUNDS else _period_label(spec, period)
        return f"{label} {_mm_ss(min(max(remaining, 0), period_length(spec, period)))}"
    if style == INNINGS:
        return _inning(spec, period, played, status_detail)
    if style == ENDS:
        return f"End {period}"
    if style == OVERS:
        return _overs(spec, period, played, status_detail)
    if style == SETS:
        return _set_score(spec, period, periods or {})
    if style == HOLE:
        return _hole(spec, played, status_detail)
    if not running and played == 0:
        return ""
    return _mm_ss(played)


def _count_up(spec: SportClock, period: int, played: int) -> str:
    """`67'`, and `45+2'` once the minute passes the period's end (football's added time)."""
    end_minute = (period_start(spec, period) + period_length(spec, period)) // 60
    if played < period_start(spec, period):  # counted from zero in each period
        played += period_start(spec, period)
    minute = played // 60 + 1
    if minute > end_minute:
        return f"{end_minute}+{minute - end_minute}'"
    return f"{minute}'"


def _period_label(spec: SportClock, period: int) -> str:
    if period > spec.periods:
        extra = period - spec.periods
        return "OT" if extra == 1 else f"OT{extra}"
    return f"{spec.prefix}{period}"


def _inning(spec: SportClock, period: int, played: int, detail: str) -> str:
    """`▲7` in the top of the 7th, `▼7` in the bottom; the half from the status detail, else
    from the time into the inning."""
    words = (detail or "").casefold()
    if "top" in words or "▲" in words:
        return f"▲{period}"
    if "bot" in words or "▼" in words:
        return f"▼{period}"
    into = into_period(spec, period, played)
    return f"▲{period}" if into < spec.period_s / 2 else f"▼{period}"


def _overs(spec: SportClock, period: int, played: int, detail: str) -> str:
    """`14.3 ov`: overs and balls of the innings, from the status detail when it says, else
    from the time into the innings (a limited-overs innings spread over its length)."""
    said = _OVERS.search(detail or "")
    if said:
        return f"{said.group(1)} ov"
    into = into_period(spec, period, played)
    length = period_length(spec, period)
    overs = OVERS_PER_INNINGS if period <= spec.periods else 1
    balls = min(int(into * overs * BALLS_PER_OVER / max(length, 1)), overs * BALLS_PER_OVER)
    return f"{balls // BALLS_PER_OVER}.{balls % BALLS_PER_OVER} ov"


def _set_score(spec: SportClock, period: int, periods: dict[str, tuple[int, int]]) -> str:
    """`S2 4-3`: the set (game, leg, frame, map) being played and its score, no clock."""
    score = periods.get(f"p{period}") or periods.get(f"map{period}")
    label = f"{spec.prefix}{period}"
    return label if score is None else f"{label} {score[0]}-{score[1]}"


def _hole(spec: SportClock, played: int, detail: str) -> str:
    said = _HOLE.search(detail or "")
    if said:
        return f"Hole {said.group(1)}"
    hole = min(int(played * HOLES / max(spec.period_s, 1)) + 1, HOLES)
    return f"Hole {hole}"


def _mm_ss(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}" if minutes < 10 else f"{minutes:02d}:{secs:02d}"


def held_played(shown: int, wire: int, same_period: bool) -> int:
    """The played seconds to start from when a new clock arrives: a wire value behind the one
    shown within the same period holds the shown one (a clock never steps back)."""
    return max(shown, wire) if same_period else wire

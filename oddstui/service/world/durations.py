"""The mean length of a match of each sport, in simulated seconds: what `measured_duration`
finds by playing out six engines. It is kept here because the schedule needs it before the
world's first answer and playing the engines out costs a tenth of a second at every start; a
test measures each sport again, so a change to an engine that moves a figure fails until this
table is brought up to date (the failing test prints its new lines).
"""

from __future__ import annotations

from oddstui.service.world.engines import make_engine
from oddstui.service.world.sports import SPORT_BY_SLUG

PLAYED_OUT = 6  # engines played out per sport

MEAN_DURATIONS: dict[str, float] = {
    "football": 6650.0,
    "basketball": 7470.0,
    "tennis": 9234.845261241613,
    "baseball": 11040.0,
    "american-football": 11820.0,
    "ice-hockey": 8460.0,
    "esports": 7073.723481551188,
    "darts": 5525.720353694599,
    "mixed-martial-arts": 915.6605142582117,
    "boxing": 2456.8115680059213,
    "handball": 5100.0,
    "volleyball": 4656.227937617699,
    "snooker": 7563.472778216858,
    "table-tennis": 1308.7270165408108,
    "rugby": 6120.0,
    "cricket": 11872.7943054551,
    "water-polo": 4080.0,
    "futsal": 5712.5,
    "beach-volleyball": 2612.2344839423918,
    "aussie-rules": 9120.0,
    "floorball": 6300.0,
    "squash": 2592.34795112669,
    "beach-soccer": 3060.0,
    "lacrosse": 6477.3709664788885,
    "curling": 9930.0,
    "padel": 8364.862454436989,
    "bandy": 6650.0,
    "gaelic-football": 5840.0,
    "beach-handball": 2025.0,
    "athletics": 900.0,
    "badminton": 2103.452354607258,
    "cross-country": 2400.0,
    "golf": 14400.0,
    "cycling": 14400.0,
}


def measured_duration(slug: str) -> float:
    """The mean simulated length of `PLAYED_OUT` matches of the sport, played out now."""
    spec = SPORT_BY_SLUG[slug]
    total = 0.0
    for seed in range(PLAYED_OUT):
        engine = make_engine(spec, 1000 + seed, rating=0.0, knockout=False)
        engine.play_out()
        total += engine.ended_at or engine.elapsed
    return total / PLAYED_OUT

"""The 34 sports of the seed: their match format, scoring, schedule density and leagues.

Durations are simulated seconds. `total` is the expected regulation total of the main score,
`increments` the points a scoring play is worth (with weights). The engine kinds are:
timed (clocked periods), batting (cricket), innings (baseball, curling ends), rounds (combat),
tennis (games and points), rally (sets of rally points), legs (darts), frames (snooker),
maps (esports) and race (head-to-head in a race or round).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

# Overtime rules.
NO_OT = "none"  # a draw stands
OT_TIE = "ot_tie"  # one overtime period; it may still end level (american football)
OT_REPEAT = "ot_repeat"  # overtime periods until someone leads (basketball)
OT_SUDDEN = "ot_sudden"  # sudden-death overtime until a score (lacrosse)
OT_SHOOTOUT = "ot_shootout"  # sudden-death overtime, then a shoot-out (ice hockey)
ET_PENALTIES = "et_penalties"  # extra time, then penalties (football knockouts)
SHOOTOUT = "shootout"  # straight to a shoot-out (beach handball, water polo)


@dataclass(frozen=True, slots=True)
class SportSpec:
    slug: str
    name: str
    engine: str
    draw: bool  # a regulation draw is possible: ML is three-way
    periods: int = 2
    game_s: float = 2700.0  # game-clock seconds per period
    real_s: float = 2700.0  # simulated seconds a period takes (stoppages included)
    break_s: float = 120.0  # between periods
    half_break_s: float = 900.0  # at half time (periods even), or between all periods if 3
    total: float = 2.7
    increments: tuple[tuple[int, float], ...] = ((1, 1.0),)
    overtime: str = NO_OT  # rule in league play
    knockout_overtime: str = NO_OT  # rule in knockout competitions
    ot_game_s: float = 300.0
    ot_real_s: float = 480.0
    ot_periods: int = 1
    live_target: float = 1.0  # live matches at any moment, on average
    horizon_days: float = 7.0
    individual: bool = False
    period_word: str = "period"  # for statusDetail: "1st half", "2nd quarter", "Map 2"
    sigma_k: float = 1.0  # spread of the final margin relative to sqrt(total)
    rating_sd: float = 0.5  # spread of the pre-match expected margin, as a share of sqrt(total)
    extra: dict[str, float] = field(default_factory=dict)
    red_cards: float = 0.0  # red cards a side is shown a match, on average (0: none shown)
    leagues: tuple[tuple[str, str, bool], ...] = ()  # (slug, display name, knockout)


def slugify(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def _lg(
    country: str, country_name: str, comp: str, knockout: bool = False
) -> tuple[str, str, bool]:
    # Regions named after a body ("ATP", "PDC") take the body's name in the slug.
    prefix = country if country_name.lower() in (country, "türkiye") else slugify(country_name)
    return (f"{prefix}-{slugify(comp)}", f"{country_name} - {comp}", knockout)


SPORTS: tuple[SportSpec, ...] = (
    SportSpec(
        "football", "Football", "timed", True, periods=2, game_s=2700, real_s=2700,
        half_break_s=900, total=2.7, knockout_overtime=ET_PENALTIES, ot_game_s=900,
        ot_real_s=900, ot_periods=2, live_target=7, horizon_days=14, period_word="half",
        sigma_k=1.0, rating_sd=0.35, red_cards=0.064,
        leagues=(
            _lg("england", "England", "Premier League"), _lg("spain", "Spain", "LaLiga"),
            _lg("norway", "Norway", "Eliteserien"), _lg("czechia", "Czechia", "Chance Liga"),
            _lg("england", "England", "FA Cup", True),
            _lg("europe", "Europe", "Champions League", True),
        ),
    ),
    SportSpec(
        "basketball", "Basketball", "timed", False, periods=4, game_s=720, real_s=1500,
        break_s=150, half_break_s=900, total=220, increments=((2, 0.62), (3, 0.23), (1, 0.15)),
        overtime=OT_REPEAT, knockout_overtime=OT_REPEAT, ot_game_s=300, ot_real_s=660,
        live_target=3, horizon_days=10, period_word="quarter", sigma_k=0.9, rating_sd=0.45,
        leagues=(
            _lg("usa", "USA", "NBA"), _lg("spain", "Spain", "Liga ACB"),
            _lg("europe", "Europe", "EuroLeague"), _lg("usa", "USA", "NCAA", True),
        ),
    ),
    SportSpec(
        "tennis", "Tennis", "tennis", False, periods=3, real_s=45, break_s=120,
        total=2.4, live_target=5, horizon_days=4, individual=True, period_word="set",
        rating_sd=0.6, extra={"best_of_5": 0.0},
        leagues=(
            _lg("world", "ATP", "Paris Masters"), _lg("world", "WTA", "Finals"),
            _lg("world", "ATP", "Challenger Helsinki"), _lg("world", "ITF", "Men Heraklion"),
            _lg("australia", "Australia", "Open", True),
        ),
    ),
    SportSpec(
        "baseball", "Baseball", "innings", False, periods=9, real_s=1200, break_s=30,
        total=8.8, overtime=OT_REPEAT, knockout_overtime=OT_REPEAT, ot_real_s=1200,
        live_target=2, horizon_days=7, period_word="inning", sigma_k=1.3, rating_sd=0.3,
        leagues=(
            _lg("usa", "USA", "MLB"), _lg("japan", "Japan", "NPB"),
            _lg("world", "World", "Baseball Classic", True),
        ),
    ),
    SportSpec(
        "american-football", "American Football", "timed", False, periods=4, game_s=900,
        real_s=2700, break_s=120, half_break_s=780, total=45,
        increments=((7, 0.5), (3, 0.4), (6, 0.07), (2, 0.03)), overtime=OT_TIE,
        knockout_overtime=OT_SUDDEN, ot_game_s=600, ot_real_s=1500, live_target=1,
        horizon_days=10, period_word="quarter", sigma_k=2.0, rating_sd=0.6,
        leagues=(_lg("usa", "USA", "NFL"), _lg("usa", "USA", "NCAAF"), _lg("usa", "USA", "UFL")),
    ),
    SportSpec(
        "ice-hockey", "Ice Hockey", "timed", True, periods=3, game_s=1200, real_s=2100,
        break_s=1080, half_break_s=1080, total=5.8, overtime=OT_SHOOTOUT,
        knockout_overtime=OT_SHOOTOUT, ot_game_s=300, ot_real_s=480, live_target=4,
        horizon_days=10, period_word="period", sigma_k=1.0, rating_sd=0.3,
        leagues=(
            _lg("usa", "USA", "NHL"), _lg("sweden", "Sweden", "SHL"),
            _lg("finland", "Finland", "Liiga"), _lg("czechia", "Czechia", "Extraliga"),
            _lg("switzerland", "Switzerland", "National League"),
        ),
    ),
    SportSpec(
        "esports", "Esports", "maps", False, periods=3, real_s=110, break_s=300, total=2.4,
        live_target=4, horizon_days=4, period_word="map", rating_sd=0.5,
        leagues=(
            _lg("world", "CS2", "Major"), _lg("europe", "Europe", "CS2 Pro League"),
            _lg("world", "LoL", "Worlds"), _lg("world", "Dota 2", "The International"),
        ),
    ),
    SportSpec(
        "darts", "Darts", "legs", False, periods=7, real_s=170, break_s=120, total=5.5,
        live_target=2, horizon_days=5, individual=True, period_word="set", rating_sd=0.5,
        leagues=(
            _lg("world", "PDC", "World Championship"), _lg("europe", "PDC", "European Tour"),
            _lg("england", "England", "Premier League Darts"),
        ),
    ),
    SportSpec(
        "mixed-martial-arts", "Mixed Martial Arts", "rounds", False, periods=3, real_s=300,
        break_s=60, total=1.0, live_target=0.6, horizon_days=14, individual=True,
        period_word="round", rating_sd=0.6, extra={"finish": 0.22},
        leagues=(_lg("world", "UFC", "Fight Night"), _lg("world", "PFL", "Season")),
    ),
    SportSpec(
        "boxing", "Boxing", "rounds", True, periods=12, real_s=180, break_s=60, total=1.0,
        live_target=0.5, horizon_days=14, individual=True, period_word="round",
        rating_sd=0.6, extra={"finish": 0.05},
        leagues=(_lg("world", "World", "WBC Title"), _lg("england", "England", "BBBofC")),
    ),
    SportSpec(
        "handball", "Handball", "timed", True, periods=2, game_s=1800, real_s=2100,
        half_break_s=900, total=56, knockout_overtime=ET_PENALTIES, ot_game_s=300,
        ot_real_s=360, ot_periods=2, live_target=2, horizon_days=10, period_word="half",
        sigma_k=0.8, rating_sd=0.35,
        leagues=(
            _lg("germany", "Germany", "Bundesliga"), _lg("denmark", "Denmark", "Herreligaen"),
            _lg("europe", "Europe", "EHF Champions League", True),
        ),
    ),
    SportSpec(
        "volleyball", "Volleyball", "rally", False, periods=5, real_s=24, break_s=180,
        total=3.8, live_target=2, horizon_days=6, period_word="set", rating_sd=0.4,
        extra={"to": 25, "last_to": 15},
        leagues=(
            _lg("italy", "Italy", "SuperLega"), _lg("poland", "Poland", "PlusLiga"),
            _lg("turkey", "Türkiye", "Efeler Ligi"),
        ),
    ),
    SportSpec(
        "snooker", "Snooker", "frames", False, periods=9, real_s=900, break_s=60, total=7.5,
        live_target=1, horizon_days=5, individual=True, period_word="frame", rating_sd=0.5,
        leagues=(_lg("england", "England", "UK Championship"), _lg("world", "World", "Open")),
    ),
    SportSpec(
        "table-tennis", "Table Tennis", "rally", False, periods=5, real_s=12, break_s=60,
        total=4.0, live_target=3, horizon_days=2, individual=True, period_word="game",
        rating_sd=0.5, extra={"to": 11, "last_to": 11},
        leagues=(
            _lg("czechia", "Czechia", "TT Cup"), _lg("world", "WTT", "Contender"),
            _lg("poland", "Poland", "TT Elite Series"),
        ),
    ),
    SportSpec(
        "rugby", "Rugby", "timed", True, periods=2, game_s=2400, real_s=2700,
        half_break_s=720, total=46, increments=((7, 0.45), (5, 0.2), (3, 0.35)),
        live_target=1, horizon_days=10, period_word="half", sigma_k=1.6, rating_sd=0.5,
        leagues=(
            _lg("france", "France", "Top 14"), _lg("england", "England", "Premiership Rugby"),
            _lg("world", "World", "Rugby Championship"),
        ),
    ),
    SportSpec(
        "cricket", "Cricket", "batting", False, periods=2, game_s=5400, real_s=5400,
        half_break_s=1200, total=330, increments=((1, 0.6), (2, 0.12), (4, 0.2), (6, 0.08)),
        overtime=OT_REPEAT, knockout_overtime=OT_REPEAT, ot_game_s=300, ot_real_s=600,
        live_target=1, horizon_days=7, period_word="innings", sigma_k=1.5, rating_sd=0.3,
        leagues=(
            _lg("australia", "Australia", "Big Bash League"), _lg("world", "World", "T20 Series"),
        ),
    ),
    SportSpec(
        "water-polo", "Water Polo", "timed", True, periods=4, game_s=480, real_s=900,
        break_s=120, half_break_s=240, total=20, knockout_overtime=SHOOTOUT, live_target=0.6,
        horizon_days=7, period_word="quarter", sigma_k=0.9, rating_sd=0.4,
        leagues=(_lg("croatia", "Croatia", "Prva Liga"), _lg("europe", "Europe", "LEN Cup", True)),
    ),
    SportSpec(
        "futsal", "Futsal", "timed", True, periods=2, game_s=1200, real_s=2100,
        half_break_s=900, total=6.0, knockout_overtime=ET_PENALTIES, ot_game_s=300,
        ot_real_s=480, ot_periods=2, live_target=0.7, horizon_days=7, period_word="half",
        rating_sd=0.4,
        leagues=(_lg("spain", "Spain", "Primera Futsal"), _lg("brazil", "Brazil", "Liga Futsal")),
    ),
    SportSpec(
        "beach-volleyball", "Beach Volleyball", "rally", False, periods=3, real_s=25,
        break_s=120, total=2.4, live_target=0.8, horizon_days=3, period_word="set",
        rating_sd=0.4, extra={"to": 21, "last_to": 15},
        leagues=(_lg("world", "World", "Pro Tour Elite16"), _lg("brazil", "Brazil", "Circuito")),
    ),
    SportSpec(
        "aussie-rules", "Aussie Rules", "timed", True, periods=4, game_s=1200, real_s=1800,
        break_s=360, half_break_s=1200, total=165, increments=((6, 0.5), (1, 0.5)),
        live_target=0.6, horizon_days=10, period_word="quarter", sigma_k=1.6, rating_sd=0.5,
        leagues=(_lg("australia", "Australia", "AFL"), _lg("australia", "Australia", "VFL")),
    ),
    SportSpec(
        "floorball", "Floorball", "timed", True, periods=3, game_s=1200, real_s=1500,
        break_s=900, half_break_s=900, total=10, knockout_overtime=OT_SHOOTOUT, ot_game_s=600,
        ot_real_s=720, live_target=0.6, horizon_days=7, period_word="period", rating_sd=0.4,
        leagues=(_lg("sweden", "Sweden", "SSL"), _lg("finland", "Finland", "F-liiga", True)),
    ),
    SportSpec(
        "squash", "Squash", "rally", False, periods=5, real_s=25, break_s=90, total=3.8,
        live_target=0.6, horizon_days=3, individual=True, period_word="game", rating_sd=0.5,
        extra={"to": 11, "last_to": 11},
        leagues=(_lg("world", "PSA", "World Tour"), _lg("england", "England", "Squash Open")),
    ),
    SportSpec(
        "beach-soccer", "Beach Soccer", "timed", False, periods=3, game_s=720, real_s=900,
        break_s=180, half_break_s=180, total=8, overtime=ET_PENALTIES,
        knockout_overtime=ET_PENALTIES, ot_game_s=180, ot_real_s=240, live_target=0.5,
        horizon_days=7, period_word="period", rating_sd=0.4,
        leagues=(
            _lg("world", "World", "Euro Beach Soccer League"), _lg("brazil", "Brazil", "Copa")
        ),
    ),
    SportSpec(
        "lacrosse", "Lacrosse", "timed", False, periods=4, game_s=900, real_s=1400,
        break_s=120, half_break_s=600, total=22, overtime=OT_SUDDEN, knockout_overtime=OT_SUDDEN,
        ot_game_s=240, ot_real_s=360, live_target=0.5, horizon_days=7, period_word="quarter",
        rating_sd=0.4,
        leagues=(_lg("usa", "USA", "PLL"), _lg("usa", "USA", "NLL")),
    ),
    SportSpec(
        "curling", "Curling", "innings", False, periods=10, real_s=840, break_s=60, total=12,
        overtime=OT_REPEAT, knockout_overtime=OT_REPEAT, ot_real_s=840, live_target=0.5,
        horizon_days=5, period_word="end", rating_sd=0.4,
        leagues=(_lg("world", "World", "Curling Tour"), _lg("switzerland", "Switzerland", "Cup")),
    ),
    SportSpec(
        "padel", "Padel", "tennis", False, periods=3, real_s=40, break_s=120, total=2.4,
        live_target=0.8, horizon_days=3, individual=True, period_word="set", rating_sd=0.5,
        leagues=(_lg("world", "World", "Premier Padel"), _lg("spain", "Spain", "Padel Open")),
    ),
    SportSpec(
        "bandy", "Bandy", "timed", True, periods=2, game_s=2700, real_s=2700, half_break_s=900,
        total=8, knockout_overtime=ET_PENALTIES, ot_game_s=900, ot_real_s=900, ot_periods=2,
        live_target=0.4, horizon_days=7, period_word="half", rating_sd=0.4,
        leagues=(_lg("sweden", "Sweden", "Elitserien"), _lg("norway", "Norway", "Bandyserien")),
    ),
    SportSpec(
        "gaelic-football", "Gaelic Football", "timed", True, periods=2, game_s=2100,
        real_s=2280, half_break_s=900, total=32, increments=((1, 0.85), (3, 0.15)),
        knockout_overtime=ET_PENALTIES, ot_game_s=600, ot_real_s=660, ot_periods=2,
        live_target=0.4, horizon_days=10, period_word="half", sigma_k=1.1, rating_sd=0.4,
        leagues=(
            _lg("ireland", "Ireland", "All-Ireland Championship", True),
            _lg("ireland", "Ireland", "National League"),
        ),
    ),
    SportSpec(
        "beach-handball", "Beach Handball", "timed", False, periods=2, game_s=600, real_s=780,
        half_break_s=300, total=36, increments=((2, 0.7), (1, 0.3)), overtime=SHOOTOUT,
        knockout_overtime=SHOOTOUT, live_target=0.4, horizon_days=4, period_word="set",
        rating_sd=0.4,
        leagues=(_lg("europe", "Europe", "EBT Finals"), _lg("world", "World", "Championship")),
    ),
    SportSpec(
        "athletics", "Athletics", "race", False, periods=1, real_s=900, total=1.0,
        live_target=0.4, horizon_days=5, individual=True, period_word="race", rating_sd=0.5,
        leagues=(_lg("world", "World", "Diamond League"), _lg("europe", "Europe", "Indoor Tour")),
    ),
    SportSpec(
        "badminton", "Badminton", "rally", False, periods=3, real_s=18, break_s=120, total=2.4,
        live_target=1.5, horizon_days=3, individual=True, period_word="game", rating_sd=0.5,
        extra={"to": 21, "last_to": 21},
        leagues=(
            _lg("world", "BWF", "World Tour"), _lg("denmark", "Denmark", "Open"),
            _lg("japan", "Japan", "Masters"),
        ),
    ),
    SportSpec(
        "cross-country", "Cross-Country", "race", False, periods=1, real_s=2400, total=1.0,
        live_target=0.3, horizon_days=7, individual=True, period_word="race", rating_sd=0.5,
        leagues=(_lg("world", "World", "XC Tour"), _lg("norway", "Norway", "Cup")),
    ),
    SportSpec(
        "golf", "Golf", "race", False, periods=1, real_s=14400, total=1.0, live_target=0.8,
        horizon_days=7, individual=True, period_word="round", rating_sd=0.5,
        leagues=(_lg("usa", "USA", "PGA Tour"), _lg("europe", "Europe", "DP World Tour")),
    ),
    SportSpec(
        "cycling", "Cycling", "race", False, periods=1, real_s=14400, total=1.0,
        live_target=0.5, horizon_days=7, individual=True, period_word="stage", rating_sd=0.5,
        leagues=(_lg("world", "UCI", "World Tour"), _lg("france", "France", "Tour Stage")),
    ),
)

SPORT_BY_SLUG: dict[str, SportSpec] = {s.slug: s for s in SPORTS}

SEED_SLUGS = (
    "football basketball tennis baseball american-football ice-hockey esports darts "
    "mixed-martial-arts boxing handball volleyball snooker table-tennis rugby cricket water-polo "
    "futsal beach-volleyball aussie-rules floorball squash beach-soccer lacrosse curling padel "
    "bandy gaelic-football beach-handball athletics badminton cross-country golf cycling"
).split()
assert [s.slug for s in SPORTS] == SEED_SLUGS, "sports must follow the seed's order"

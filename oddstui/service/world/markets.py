"""The market types each sport offers, and the hidden true probabilities of their lines.

A market is priced from a small state: the event's strength `z` (home edge in standard
deviations), the sport's expected totals, the live score and the share of regulation played,
plus a random-walk offset per market. Lines (hdp values) follow the current expectation, so live
lines move as the match goes on; a line whose outcome is already decided is withdrawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from oddstui.service.world.sports import SPORTS, SportSpec

ML3, ML2, SPREAD, TOTALS, TEAM_HOME, TEAM_AWAY = "ml3", "ml2", "spread", "totals", "th", "ta"
YESNO, DC, DNB, PROPS = "yesno", "dc", "dnb", "props"
SIDES = {
    ML3: ("home", "draw", "away"), ML2: ("home", "away"), SPREAD: ("home", "away"),
    TOTALS: ("over", "under"), TEAM_HOME: ("over", "under"), TEAM_AWAY: ("over", "under"),
    YESNO: ("yes", "no"), DC: ("yes", "no"), DNB: ("home", "away"), PROPS: ("over", "under"),
}
DC_LABELS = ("Home or Draw", "Home or Away", "Draw or Away")
DECIDED = 0.985  # a line with a side more likely than this is withdrawn


@dataclass(frozen=True, slots=True)
class MarketDef:
    name: str
    kind: str
    stat: str = "main"  # main (the score), sum (games/points/legs in the period keys), latent
    scope: tuple[float, float] = (0.0, 1.0)  # the share of regulation it covers
    total: float = 0.0  # expected total of a sum/latent stat over the match (0: the sport's)
    step: float = 1.0  # line spacing
    half: bool = True  # lines sit on .5
    p_yes: float = 0.5  # yes/no: the base chance, or the name of a rule in `rule`
    rule: str = ""  # yes/no rule: btts, home_scores, away_scores, clean_home, ...
    tier: int = 0  # 0: every book quotes it; 1: most; 2: the bigger books; 3: a few
    set_no: int = 0  # markets on one set or map: its number


def _main_set(spec: SportSpec) -> list[MarketDef]:
    """ML, Spread, Totals and team totals on the match score."""
    step = 1.0 if spec.total >= 6 else 0.5
    spread_step = max(0.5, round(math.sqrt(spec.total) * 0.25 * 2) / 2)
    total_step = max(1.0, round(math.sqrt(spec.total) * 0.5))
    ml = ML3 if spec.draw else ML2
    team_total = max(0.5, spec.total / 2)
    return [
        MarketDef("ML", ml),
        MarketDef("Spread", SPREAD, step=spread_step, half=spec.total >= 6),
        MarketDef("Totals", TOTALS, step=total_step if spec.total >= 6 else step),
        MarketDef("Team Total Home", TEAM_HOME, step=max(1.0, total_step / 2), tier=1,
                  total=team_total),
        MarketDef("Team Total Away", TEAM_AWAY, step=max(1.0, total_step / 2), tier=1,
                  total=team_total),
    ]


def _period_set(spec: SportSpec) -> list[MarketDef]:
    ml = ML3 if spec.draw else ML2
    out: list[MarketDef] = []
    step = 1.0
    sstep = max(0.5, round(math.sqrt(spec.total / 2) * 0.25 * 2) / 2)
    if spec.periods in (2, 4):
        for tag, scope in (("HT", (0.0, 0.5)), ("2H", (0.5, 1.0))):
            out += [
                MarketDef(f"ML {tag}", ml, scope=scope, tier=1),
                MarketDef(f"Spread {tag}", SPREAD, scope=scope, step=sstep, tier=1,
                          half=spec.total >= 6),
                MarketDef(f"Totals {tag}", TOTALS, scope=scope, step=step, tier=1),
            ]
    if spec.periods == 4:
        for q in range(1, 5):
            scope = ((q - 1) / 4, q / 4)
            out += [
                MarketDef(f"ML {q}Q", ml, scope=scope, tier=2),
                MarketDef(f"Spread {q}Q", SPREAD, scope=scope, step=1.0, tier=2),
                MarketDef(f"Totals {q}Q", TOTALS, scope=scope, step=1.0, tier=2),
            ]
    if spec.periods == 3:
        for p in range(1, 4):
            scope = ((p - 1) / 3, p / 3)
            out += [
                MarketDef(f"ML {p}P", ml, scope=scope, tier=2),
                MarketDef(f"Totals {p}P", TOTALS, scope=scope, step=0.5, half=False, tier=2),
            ]
        out.append(MarketDef("Spread 1P", SPREAD, scope=(0.0, 1 / 3), step=0.5, tier=2,
                             half=False))
    if spec.draw:
        out += [MarketDef("Double Chance", DC, tier=1), MarketDef("Draw No Bet", DNB, tier=1)]
    return out


def _latent(name: str, kind: str, total: float, tier: int = 2, step: float = 1.0,
            scope: tuple[float, float] = (0.0, 1.0)) -> MarketDef:
    return MarketDef(name, kind, stat="latent", total=total, tier=tier, step=step, scope=scope)


def _yes(name: str, p: float = 0.5, rule: str = "", tier: int = 2) -> MarketDef:
    return MarketDef(name, YESNO, p_yes=p, rule=rule, tier=tier)


def _football() -> list[MarketDef]:
    return [
        _latent("Corners Spread", SPREAD, 10.0, tier=1),
        _latent("Corners Totals", TOTALS, 10.0, tier=1),
        _latent("Corners Spread HT", SPREAD, 10.0, scope=(0.0, 0.5)),
        _latent("Corners Totals HT", TOTALS, 10.0, scope=(0.0, 0.5)),
        _latent("Bookings Spread", SPREAD, 4.2),
        _latent("Bookings Totals", TOTALS, 4.2),
        _latent("Shots On Target Totals", TOTALS, 8.5, tier=3),
        _latent("Offsides Totals", TOTALS, 3.5, tier=3),
        _latent("Fouls Totals", TOTALS, 22.0, tier=3),
        _latent("Throw-ins Totals", TOTALS, 40.0, tier=3),
        MarketDef("Player Props", PROPS, stat="latent", total=1.6, tier=2, step=1.0),
        _yes("Both Teams To Score", rule="btts", tier=1),
        _yes("Both Teams To Score HT", rule="btts_ht"),
        _yes("Home To Score", rule="home_scores"),
        _yes("Away To Score", rule="away_scores"),
        _yes("Clean Sheet Home", rule="clean_home", tier=3),
        _yes("Clean Sheet Away", rule="clean_away", tier=3),
        _yes("Win To Nil Home", rule="win_nil_home", tier=3),
        _yes("Win To Nil Away", rule="win_nil_away", tier=3),
        _yes("Red Card", rule="red_card", tier=3),
        _yes("Penalty Awarded", 0.27, tier=3),
        _yes("Goal In Both Halves", 0.55, tier=3),
        _yes("Own Goal", 0.07, tier=3),
    ]


def _basketball() -> list[MarketDef]:
    return [
        MarketDef("Player Props", PROPS, stat="latent", total=22.0, tier=2, step=1.0),
        MarketDef("Player Props Rebounds", PROPS, stat="latent", total=8.0, tier=3),
        MarketDef("Player Props Assists", PROPS, stat="latent", total=6.0, tier=3),
        MarketDef("Player Props Threes", PROPS, stat="latent", total=2.5, tier=3),
        _yes("Overtime", 0.06, tier=3),
        _latent("Totals Threes", TOTALS, 26.0, tier=3),
        _latent("Totals Rebounds", TOTALS, 88.0, tier=3),
    ]


def _hockey() -> list[MarketDef]:
    return [
        MarketDef("ML Incl OT", ML2, tier=1),
        MarketDef("Player Props", PROPS, stat="latent", total=3.0, tier=2),
        _yes("Both Teams To Score", rule="btts", tier=2),
        _yes("Overtime", 0.22, tier=2),
        _latent("Totals Shots", TOTALS, 60.0, tier=3),
        _latent("Totals Penalty Minutes", TOTALS, 16.0, tier=3),
        _yes("Empty Net Goal", 0.45, tier=3),
    ]


def _sets(spec: SportSpec, unit: str) -> list[MarketDef]:
    """Sports of sets: ML on the match, handicaps and totals on sets and on `unit`."""
    sets = spec.periods // 2 + 1
    per_set = {"Games": 10.0, "Points": 40.0, "Legs": 4.5, "Rounds": 22.0, "Frames": 1.0}[unit]
    unit_total = per_set * spec.total
    out = [
        MarketDef("ML", ML2),
        MarketDef("Spread", SPREAD, stat="sum", total=unit_total, step=1.0),
        MarketDef("Totals", TOTALS, stat="sum", total=unit_total, step=1.0),
        MarketDef("Sets Spread" if unit != "Rounds" else "Maps Spread", SPREAD, step=1.0,
                  tier=1),
        MarketDef("Sets Totals" if unit != "Rounds" else "Maps Totals", TOTALS, step=1.0,
                  tier=1),
        MarketDef(f"{unit} Spread", SPREAD, stat="sum", total=unit_total, step=1.0, tier=2),
        MarketDef(f"{unit} Totals", TOTALS, stat="sum", total=unit_total, step=1.0, tier=2),
    ]
    first = "Map" if unit == "Rounds" else "Set"
    for n in range(1, min(sets, 3) + 1):
        scope = ((n - 1) / spec.total, n / spec.total)
        out.append(MarketDef(f"{first} {n} ML", ML2, scope=scope, tier=2, set_no=n))
        out.append(MarketDef(f"{first} {n} Totals", TOTALS, stat="sum", scope=scope,
                             total=per_set, tier=2, set_no=n))
    return out


def _extras(spec: SportSpec) -> list[MarketDef]:
    slug = spec.slug
    table: dict[str, list[MarketDef]] = {
        "football": _football(),
        "basketball": _basketball(),
        "ice-hockey": _hockey(),
        "tennis": [
            _latent("Aces Totals", TOTALS, 12.0), _latent("Double Faults Totals", TOTALS, 6.0),
            _yes("Tie Break In Match", 0.45), _yes("Home Wins A Set", 0.7, tier=3),
            _yes("Away Wins A Set", 0.6, tier=3),
            MarketDef("Player Props", PROPS, stat="latent", total=6.0, tier=3),
        ],
        "padel": [_yes("Tie Break In Match", 0.3), _yes("Golden Point In Set 1", 0.8, tier=3)],
        "esports": [
            _latent("Totals Kills", TOTALS, 48.0), _latent("Kills Spread", SPREAD, 48.0),
            _yes("First Blood Home", 0.5), _yes("Map 1 Pistol Round Home", 0.5, tier=3),
            MarketDef("Player Props", PROPS, stat="latent", total=18.0, tier=3),
        ],
        "darts": [
            _latent("Totals 180s", TOTALS, 7.5), _latent("180s Spread", SPREAD, 7.5),
            _yes("Nine Darter", 0.03, tier=3), _latent("Highest Checkout Totals", TOTALS, 120.0),
        ],
        "snooker": [_yes("Century In Match", 0.75), _latent("Totals Centuries", TOTALS, 2.5),
                    _latent("Highest Break Totals", TOTALS, 110.0, tier=3)],
        "baseball": [
            MarketDef("ML 1st 5 Innings", ML2, scope=(0.0, 5 / 9), tier=1),
            MarketDef("Totals 1st 5 Innings", TOTALS, scope=(0.0, 5 / 9), tier=1),
            MarketDef("Spread 1st 5 Innings", SPREAD, scope=(0.0, 5 / 9), tier=2),
            _yes("Run In 1st Inning", 0.5), _latent("Totals Hits", TOTALS, 16.5),
            MarketDef("Player Props", PROPS, stat="latent", total=6.0, tier=3),
            _latent("Totals Strikeouts", TOTALS, 16.0, tier=3),
        ],
        "american-football": [
            _latent("Totals Touchdowns", TOTALS, 5.0), _yes("Overtime", 0.06, tier=3),
            MarketDef("Player Props", PROPS, stat="latent", total=220.0, tier=2),
            MarketDef("Player Props Rushing", PROPS, stat="latent", total=70.0, tier=3),
            MarketDef("Player Props Receiving", PROPS, stat="latent", total=60.0, tier=3),
            _latent("Totals Field Goals", TOTALS, 3.5, tier=3),
        ],
        "mixed-martial-arts": [_yes("Fight Goes The Distance", 0.45),
                               _latent("Totals Rounds", TOTALS, 2.4, step=1.0),
                               _yes("Win By KO Home", 0.3), _yes("Win By Submission Home", 0.2)],
        "boxing": [_yes("Fight Goes The Distance", 0.6), _latent("Totals Rounds", TOTALS, 9.5),
                   _yes("Win By KO Home", 0.3)],
        "handball": [_latent("Totals 7m Goals", TOTALS, 7.0, tier=3),
                     _yes("Both Teams Over 25", 0.5, tier=3)],
        "volleyball": [_yes("Set 5 Played", 0.2, tier=2)],
        "rugby": [_latent("Totals Tries", TOTALS, 6.0), _yes("Home Try Bonus", 0.3, tier=3)],
        "cricket": [_latent("Totals Sixes", TOTALS, 14.0), _latent("Totals Fours", TOTALS, 30.0),
                    _yes("Fifty Scored", 0.7, tier=3),
                    MarketDef("Player Props", PROPS, stat="latent", total=28.0, tier=3)],
        "aussie-rules": [_latent("Totals Goals", TOTALS, 25.0, tier=2)],
        "curling": [_yes("Extra End", 0.15, tier=2)],
        "golf": [_yes("Top 10 Finish Home", 0.35), _yes("Top 10 Finish Away", 0.35),
                 _latent("Totals Birdies Home", TOTALS, 4.5, tier=2)],
        "cycling": [_yes("Top 3 Finish Home", 0.3), _yes("Top 3 Finish Away", 0.3)],
        "athletics": [_yes("Podium Finish Home", 0.4), _yes("Podium Finish Away", 0.4)],
        "cross-country": [_yes("Podium Finish Home", 0.4), _yes("Podium Finish Away", 0.4)],
    }
    return table.get(slug, [])


def build_sport_markets(spec: SportSpec) -> list[MarketDef]:
    if spec.engine == "race":
        return [MarketDef("ML", ML2), *_extras(spec)]
    if spec.engine == "rounds":
        ml = ML3 if spec.draw else ML2
        return [MarketDef("ML", ml), *_extras(spec)]
    if spec.engine in ("tennis", "rally", "legs", "frames", "maps"):
        unit = {"tennis": "Games", "rally": "Points", "legs": "Legs", "frames": "Frames",
                "maps": "Rounds"}[spec.engine]
        return [*_sets(spec, unit), *_extras(spec)]
    return [*_main_set(spec), *_period_set(spec), *_extras(spec)]


MARKETS_BY_SPORT: dict[str, list[MarketDef]] = {s.slug: build_sport_markets(s) for s in SPORTS}
MARKET_NAMES: frozenset[str] = frozenset(
    m.name for markets in MARKETS_BY_SPORT.values() for m in markets
)
MARKET_IDS: dict[str, int] = {name: i + 1 for i, name in enumerate(sorted(MARKET_NAMES))}

"""The static catalog: sports, leagues, participants (with their players) and bookmakers."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from oddstui.book.fair_policy import SHARP_BOOKS
from oddstui.service.world import names as N
from oddstui.service.world.model import Bookmaker, League, Participant, Sport
from oddstui.service.world.sports import SPORTS, slugify
from oddstui.service.world.truth import unit

DEFAULT_SELECTION = [
    "Bet365", "Pinnacle", "SingBet", "Betfair Exchange", "Unibet", "William Hill", "1xBet",
    "Bwin", "Betway", "DraftKings", "FanDuel", "BetMGM",
]
SHARP = SHARP_BOOKS
FIRST_PARTICIPANT_ID = 100
NO_CREST_SHARE = 0.1
# White labels: each parent's sisters copy its prices with their own margin, a second or two late.
SISTER_GROUPS = {
    "1xBet": ("22Bet", "Betwinner", "Melbet"),
    "Betsson": ("Nordicbet", "Betsafe"),
    "Ladbrokes": ("Coral",),
}
ESPORTS_SUFFIXES = ("Esports", "Gaming", "Academy", "Five", "Club", "Nation", "Squad")


@dataclass(slots=True)
class Catalog:
    sports: dict[str, Sport] = field(default_factory=dict)
    leagues: dict[str, League] = field(default_factory=dict)
    participants: dict[int, Participant] = field(default_factory=dict)
    bookmakers: dict[str, Bookmaker] = field(default_factory=dict)
    league_members: dict[str, list[int]] = field(default_factory=dict)  # league -> ids
    knockout: set[str] = field(default_factory=set)  # league slugs of cup competitions
    players: dict[int, list[str]] = field(default_factory=dict)  # participant -> props labels
    default_selection: list[str] = field(default_factory=list)
    sisters: dict[str, list[str]] = field(default_factory=dict)  # parent -> its sisters


def build_catalog(
    rng: random.Random, bookmakers: int, sizes: dict[str, int] | None = None
) -> Catalog:
    """`sizes`: the least number of members of each sport's leagues (by sport slug)."""
    cat = Catalog()
    next_id = FIRST_PARTICIPANT_ID
    used_names: set[str] = set()
    specials = list(N.SPECIAL_TEAMS)
    for spec in SPORTS:
        cat.sports[spec.slug] = Sport(spec.slug, spec.name, spec.draw)
        for slug, name, knockout in spec.leagues:
            cat.leagues[slug] = League(slug, name, spec.slug)
            if knockout:
                cat.knockout.add(slug)
            size = rng.randint(16, 20) if spec.slug == "football" else rng.randint(10, 16)
            size = max(size, (sizes or {}).get(spec.slug, 0))
            members: list[int] = []
            for _ in range(size):
                if spec.slug == "football" and specials:
                    team = specials.pop(0)
                else:
                    team = _new_name(rng, spec.slug, spec.individual, used_names)
                used_names.add(f"{spec.slug}:{team}")
                has_crest = rng.random() >= NO_CREST_SHARE
                cat.participants[next_id] = Participant(next_id, team, spec.slug, has_crest)
                cat.players[next_id] = (
                    [team] if spec.individual
                    else [N.person(rng.choice(N.FIRST_NAMES), rng.choice(N.LAST_NAMES))
                          for _ in range(2)]
                )
                members.append(next_id)
                next_id += rng.randint(1, 3)
            cat.league_members[slug] = members
    _build_bookmakers(cat, rng, bookmakers)
    _make_sisters(cat)
    return cat


def _new_name(rng: random.Random, sport: str, individual: bool, used: set[str]) -> str:
    for _ in range(50):
        if individual:
            name = N.person(rng.choice(N.FIRST_NAMES), rng.choice(N.LAST_NAMES))
        elif sport == "esports":
            name = rng.choice(N.ESPORTS_TEAMS) if rng.random() < 0.3 else \
                f"{rng.choice(N.TOWNS)} {rng.choice(ESPORTS_SUFFIXES)}"
        else:
            name = N.town_team(rng.choice(N.TOWNS), rng.choice(N.TEAM_SUFFIXES),
                               rng.random() < 0.25)
        if f"{sport}:{name}" not in used:
            return name
    number = 2
    while f"{sport}:{name} {number}" in used:
        number += 1
    return f"{name} {number}"


def _book_names(rng: random.Random, count: int) -> list[str]:
    out = list(N.WELL_KNOWN_BOOKMAKERS[:count])
    seen = set(out)
    while len(out) < count:
        name = (rng.choice(N.BOOK_PARTS_A) + rng.choice(N.BOOK_PARTS_B)).capitalize() \
            + rng.choice(N.BOOK_SUFFIXES)
        if name not in seen:
            seen.add(name)
            out.append(name)
    return out


def _build_bookmakers(cat: Catalog, rng: random.Random, count: int) -> None:
    names = _book_names(rng, count)
    well_known = len(N.WELL_KNOWN_BOOKMAKERS)
    inactive_share = 0.04
    for i, name in enumerate(names):
        big = i < 20
        sharp = name in SHARP
        exchange = "Exchange" in name or name in ("Betdaq", "Matchbook", "Smarkets")
        active = big or rng.random() >= inactive_share or (i < well_known and i < 40)
        if sharp:
            margin, noise, latency, alt, tier, stake = rng.uniform(0.018, 0.024), 0.0015, \
                rng.uniform(0.5, 2.0), 2, 3, 5000
        elif exchange:
            margin, noise, latency, alt, tier, stake = rng.uniform(0.015, 0.025), 0.004, \
                rng.uniform(1.0, 4.0), 1, 1, 2000
        elif big:
            margin, noise, latency, alt, tier, stake = rng.uniform(0.04, 0.065), 0.006, \
                rng.uniform(3.0, 15.0), rng.choice((1, 2)), rng.choice((2, 3)), 1000
        else:
            margin, noise, latency, alt, tier, stake = rng.uniform(0.045, 0.09), 0.008, \
                rng.uniform(5.0, 60.0), rng.choice((0, 0, 1)), rng.choice((1, 1, 2)), \
                rng.choice((100, 250, 500))
        precision = 3 if name in ("Bet365", "Pinnacle", "SingBet") else rng.choice((2, 2, 3))
        cat.bookmakers[name] = Bookmaker(
            id=i + 1, name=name, active=active, margin=margin, precision=precision,
            sharp=sharp, latency=latency, site=f"https://{slugify(name) or 'book'}.example",
            noise=noise, alt_lines=alt, tier=tier, max_stake=stake,
            deep_links=big or rng.random() >= 0.1,
        )
    cat.default_selection = [n for n in DEFAULT_SELECTION if n in cat.bookmakers
                             and cat.bookmakers[n].active]


def _make_sisters(cat: Catalog) -> None:
    """Turn the sister books present into copies of their parent (no random draws: the rest of
    the catalog stays as it was). A sister quotes what its parent quotes."""
    for parent_name, sisters in SISTER_GROUPS.items():
        parent = cat.bookmakers.get(parent_name)
        if parent is None:
            continue
        for name in sisters:
            book = cat.bookmakers.get(name)
            if book is None:
                continue
            book.sister_of = parent_name
            book.copy_delay = 0.5 + 1.5 * unit(book.id, parent.id, 7)
            book.latency = parent.latency
            book.tier, book.alt_lines, book.active = parent.tier, parent.alt_lines, parent.active
            cat.sisters.setdefault(parent_name, []).append(name)

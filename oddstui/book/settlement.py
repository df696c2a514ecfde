"""Settling a bet's leg from the final score, its profit and loss, and closing-line value.

Pure maths (MATHS.md): no I/O. A leg's result is a fraction of its stake that wins: 1 won,
0.5 half won (a quarter line), 0 void (a push), -0.5 half lost, -1 lost. Only the main markets
are settled here (`SETTLED_MARKETS`); any other market is the trader's to settle by hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from oddstui.book.arbitrage import sport_has_draw

WON, HALF_WON, VOID, HALF_LOST, LOST = 1.0, 0.5, 0.0, -0.5, -1.0
RESULT_WORDS = {
    WON: "won",
    HALF_WON: "half won",
    VOID: "void",
    HALF_LOST: "half lost",
    LOST: "lost",
}
#: The results a trader may set by hand, by word.
RESULTS_BY_WORD = {word: value for value, word in RESULT_WORDS.items()}
#: Markets settled from the final score (case-insensitive), the rest by hand.
SETTLED_MARKETS = ("ml", "spread", "totals", "team total home", "team total away", "draw no bet")


@dataclass(frozen=True, slots=True)
class FinalScore:
    """The scores a settlement reads: the match (overtime-inclusive) and regulation (`ft`)."""

    home: int
    away: int
    regulation: tuple[int, int] | None = None


def settles_by_score(market: str) -> bool:
    return market.strip().casefold() in SETTLED_MARKETS


def settle_leg(
    market: str, hdp: float | None, side: str, score: FinalScore, *, has_draw: bool
) -> float | None:
    """The leg's result from the final score, or None when this market is settled by hand.

    A sport with a draw settles on regulation time (`ft`, when the service sent it), as its
    three-way markets are quoted; a sport without one on the overtime-inclusive result.
    """
    name, side = market.strip().casefold(), side.casefold()
    home, away = score.home, score.away
    if has_draw and score.regulation is not None:
        home, away = score.regulation
    if name == "ml":
        outcome = "home" if home > away else "away" if away > home else "draw"
        if outcome == "draw" and not has_draw:
            return VOID  # a two-way price on a tie: stakes back
        return WON if side == outcome else LOST
    if name == "draw no bet":
        if home == away:
            return VOID
        return WON if side == ("home" if home > away else "away") else LOST
    if hdp is None:
        return None
    if name == "spread":
        if side not in ("home", "away"):
            return None
        margin = home - away if side == "home" else away - home
        line = hdp if side == "home" else -hdp
        return _split(lambda part: _compare(margin + part, 0.0), line)
    totals = {"totals": home + away, "team total home": home, "team total away": away}
    if name in totals and side in ("over", "under"):
        total = totals[name]
        sign = 1.0 if side == "over" else -1.0
        return _split(lambda part: _compare(sign * (total - part), 0.0), hdp)
    return None


def _compare(value: float, zero: float) -> float:
    if math.isclose(value, zero, abs_tol=1e-9):
        return VOID
    return WON if value > zero else LOST


def _split(settle: Callable[[float], float], line: float) -> float:
    """A quarter line (x.25, x.75) is half the stake on each neighbouring half line."""
    quarter = abs(line * 4 - round(line * 4)) < 1e-9 and round(line * 4) % 2 != 0
    if not quarter:
        return float(settle(line))
    return (float(settle(line - 0.25)) + float(settle(line + 0.25))) / 2


def effective_price(price: float, commission: float = 0.0) -> float:
    """What a winning unit pays back, net of an exchange's commission on winnings."""
    return 1.0 + (price - 1.0) * (1.0 - commission)


def leg_profit(stake: float, price: float, result: float, commission: float = 0.0) -> float:
    """Profit (negative: loss) of one leg: the winning share at the price, the losing share lost."""
    if result > 0:
        return stake * result * (effective_price(price, commission) - 1.0)
    return stake * result


def closing_line_value(price_taken: float, fair_close: float) -> float:
    """MATHS.md: `d_taken / d_close_fair − 1` (0.05: the price beat the closing line by 5 %)."""
    return price_taken / fair_close - 1.0


# -- grading any market a final score decides ------------------------------------------------
# The one rule behind `/settlements/grade`, the bet log's settlement and the backtest: a market
# name is read as a base market on a part of the match (a period suffix), the part's score is
# taken from the score by period, and `settle_leg` or a yes/no rule settles it.

VERDICTS = {WON: "won", HALF_WON: "half_won", VOID: "void", HALF_LOST: "half_lost", LOST: "lost"}
PENDING, UNGRADEABLE = "pending", "ungradeable"
#: Sports whose `Spread` and `Totals` count games, points, legs, frames or rounds (the sum of
#: the periods' scores), while the match score counts sets (or maps).
SCORED_IN_SETS = frozenset(
    {
        "tennis", "padel", "volleyball", "beach-volleyball", "table-tennis", "squash",
        "badminton", "darts", "snooker", "esports",
    }
)  # fmt: skip
_SET_UNITS = ("sets", "maps")
_SUM_UNITS = ("games", "points", "legs", "frames", "rounds")


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A final score as the wire carries it: the match (overtime-inclusive) and its periods."""

    home: int
    away: int
    periods: Mapping[str, tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Grade:
    """A leg's result (None: not decided by the score) and, when None, the reason."""

    result: float | None
    reason: str = ""

    @property
    def verdict(self) -> str:
        return UNGRADEABLE if self.result is None else VERDICTS[self.result]


def grade_leg(
    sport: str, market: str, hdp: float | None, side: str, score: ScoreSheet, *, label: str = ""
) -> Grade:
    """Grade one leg of a finished match from its score by period (football on 90 minutes).

    Every market the final score decides is graded: the main ones on the match, on a half
    (`HT`, `2H`), a quarter (`1Q`), a period (`1P`), the first five innings, a set or map
    (`Set 2 ML`), sets/maps or games/points handicaps and totals, and the yes/no markets read
    from the score (both teams to score, clean sheet, double chance...). Anything else
    (corners, bookings, player props...) is ungradeable, with the reason.
    """
    name = " ".join(market.split()).casefold()
    side = side.strip().casefold()
    if side.startswith("lay") and len(side) > 3:  # an exchange's lay: the back side's opposite
        back = grade_leg(sport, market, hdp, side[3:], score, label=label)
        return back if back.result is None else Grade(-back.result or VOID)
    has_draw = sport_has_draw(sport)
    part = _part_score(sport, name, score, has_draw)
    if part is None:
        return Grade(None, f"the final score does not decide {market.strip()!r}")
    base, final, draw_counts = part
    if base in _YES_NO:
        if side not in ("yes", "no"):
            return Grade(None, f"side {side!r} is not yes or no")
        happened = _YES_NO[base](final, score, label.strip().casefold())
        if happened is None:
            return Grade(None, f"the final score does not decide {market.strip()!r} {label!r}")
        return Grade(WON if happened == (side == "yes") else LOST)
    result = settle_leg(base, hdp, side, final, has_draw=draw_counts)
    if result is None:
        needs = "a line (hdp)" if hdp is None and base not in ("ml", "draw no bet") else "a side"
        return Grade(None, f"{market.strip()!r} needs {needs} it can read; got side {side!r}")
    return Grade(result)


def _part_score(
    sport: str, name: str, score: ScoreSheet, has_draw: bool
) -> tuple[str, FinalScore, bool] | None:
    """(base market, the part's score, whether a draw stands) for a market name, or None."""
    periods = {key: (int(h), int(a)) for key, (h, a) in score.periods.items()}
    regular = sorted((int(key[1:]), value) for key, value in periods.items() if _is_period(key))
    regulation = periods.get("ft") if has_draw else None
    match = FinalScore(score.home, score.away, regulation)
    words = name.split()
    if name == "ml incl ot":
        return "ml", FinalScore(score.home, score.away), False
    one_set = len(words) == 3 and words[0] in ("set", "map") and words[1].isdigit()
    if one_set and words[2] in ("ml", "spread", "totals"):
        value = periods.get(f"p{words[1]}") or periods.get(f"map{words[1]}")
        if value is None:
            return None
        return words[2], FinalScore(*value), False  # the set's spread and totals count games
    if words and words[0] in _SET_UNITS and len(words) == 2:
        return words[1], FinalScore(score.home, score.away), False
    if sport in SCORED_IN_SETS and words:
        if words[0] in _SUM_UNITS and len(words) == 2:
            words = words[1:]
        if words in (["spread"], ["totals"]):
            home = sum(h for _, (h, _a) in regular) + sum(
                h for k, (h, _a) in periods.items() if k.startswith("map")
            )
            away = sum(a for _, (_h, a) in regular) + sum(
                a for k, (_h, a) in periods.items() if k.startswith("map")
            )
            return words[0], FinalScore(home, away), False
        if words == ["ml"]:
            return "ml", match, has_draw
        return _yes_no_part(" ".join(words), match, has_draw)
    scope = _scope(words, len(regular))
    if scope is None:
        return _yes_no_part(name, match, has_draw)
    base, first, last = scope
    if last > len(regular) or not regular:
        return None
    home = sum(h for number, (h, _a) in regular if first <= number <= last)
    away = sum(a for number, (_h, a) in regular if first <= number <= last)
    return base, FinalScore(home, away), has_draw


def _is_period(key: str) -> bool:
    return key[:1] == "p" and key[1:].isdigit()


def _scope(words: list[str], count: int) -> tuple[str, int, int] | None:
    """A period-scoped name: (base, first period, last period), or None for the whole match."""
    if len(words) >= 4 and words[-3:] == ["1st", "5", "innings"]:
        return " ".join(words[:-3]), 1, 5
    if len(words) < 2:
        return None
    tag, base = words[-1], " ".join(words[:-1])
    if tag in ("ht", "2h") and count in (2, 4):
        half = count // 2
        return (base, 1, half) if tag == "ht" else (base, half + 1, count)
    if len(tag) == 2 and tag[0].isdigit() and tag[1] in ("q", "p"):
        return base, int(tag[0]), int(tag[0])
    return None


def _yes_no_part(
    name: str, match: FinalScore, has_draw: bool
) -> tuple[str, FinalScore, bool] | None:
    if name in _YES_NO or name in _MAIN:
        return name, match, has_draw
    return None


def _regulation(final: FinalScore) -> tuple[int, int]:
    return final.regulation if final.regulation is not None else (final.home, final.away)


def _double_chance(final: FinalScore, _score: ScoreSheet, label: str) -> bool | None:
    home, away = _regulation(final)
    outcome = "home" if home > away else "away" if away > home else "draw"
    picks = {"home or draw": ("home", "draw"), "home or away": ("home", "away"),
             "draw or away": ("draw", "away")}.get(label)  # fmt: skip
    return None if picks is None else outcome in picks


def _halves(score: ScoreSheet) -> tuple[tuple[int, int], tuple[int, int]] | None:
    first, second = score.periods.get("p1"), score.periods.get("p2")
    return None if first is None or second is None else (first, second)


def _goal_in_both_halves(_final: FinalScore, score: ScoreSheet, _label: str) -> bool | None:
    halves = _halves(score)
    return None if halves is None else all(h + a > 0 for h, a in halves)


def _run_first_inning(_final: FinalScore, score: ScoreSheet, _label: str) -> bool | None:
    first = score.periods.get("p1")
    return None if first is None else sum(first) > 0


def _tie_break(_final: FinalScore, score: ScoreSheet, _label: str) -> bool | None:
    """A set won 7-6 was decided by a tie break (tennis, padel)."""
    sets = [value for key, value in score.periods.items() if _is_period(key)]
    return None if not sets else any(sorted(value) == [6, 7] for value in sets)


def _rule(test: Callable[[int, int], bool]) -> Callable[[FinalScore, ScoreSheet, str], bool]:
    return lambda final, _score, _label: test(*_regulation(final))


_MAIN = frozenset(SETTLED_MARKETS)
_YES_NO: dict[str, Callable[[FinalScore, ScoreSheet, str], bool | None]] = {
    "both teams to score": _rule(lambda h, a: h > 0 and a > 0),
    "home to score": _rule(lambda h, a: h > 0),
    "away to score": _rule(lambda h, a: a > 0),
    "clean sheet home": _rule(lambda h, a: a == 0),
    "clean sheet away": _rule(lambda h, a: h == 0),
    "win to nil home": _rule(lambda h, a: h > a and a == 0),
    "win to nil away": _rule(lambda h, a: a > h and h == 0),
    "home wins a set": _rule(lambda h, a: h > 0),
    "away wins a set": _rule(lambda h, a: a > 0),
    "double chance": _double_chance,
    "goal in both halves": _goal_in_both_halves,
    "overtime": lambda _f, score, _l: "ot" in score.periods or "ap" in score.periods,
    "set 5 played": lambda _f, score, _l: "p5" in score.periods,
    "run in 1st inning": _run_first_inning,
    "tie break in match": _tie_break,
    "both teams over 25": _rule(lambda h, a: h > 25 and a > 25),
}

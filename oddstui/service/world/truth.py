"""Hidden true probabilities of every line of a market, from a small per-event state.

`EventTruth` holds what is hidden about an event: its strength `z`, one random-walk offset per
market and the players of its props. `true_lines(market, ctx)` turns that and the live score
(`LiveView`) into lines: `(hdp, label, probabilities per side)`, with hdp `None` when the market
has no line. Only `step()` changes the inputs, so the result is a pure function of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from oddstui.service.world import markets as M
from oddstui.service.world.markets import MarketDef
from oddstui.service.world.model import Scores
from oddstui.service.world.sports import SportSpec

SQRT2 = math.sqrt(2.0)
Line3 = tuple[float | None, str | None, tuple[float, ...]]


def phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / SQRT2))


def mix(*values: int) -> int:
    """A fast deterministic 32-bit hash of integers (stable across runs, unlike `hash(str)`)."""
    h = 0x811C9DC5
    for v in values:
        h = ((h ^ (v & 0xFFFFFFFF)) * 0x01000193) & 0xFFFFFFFF
        h ^= h >> 15
        h = (h * 0x2C1B3C6D) & 0xFFFFFFFF
        h ^= h >> 12
    return h


def unit(*values: int) -> float:
    """A deterministic uniform number in [0, 1) from integers."""
    return mix(*values) / 4294967296.0


@dataclass(slots=True)
class EventTruth:
    z: float  # home edge in standard deviations of the final margin
    players: list[tuple[str, float]]  # props labels and their share of the stat
    salt: int  # per-event hash salt
    walk: dict[str, float] = field(default_factory=dict)  # market name -> offset
    version: int = 0  # bumped on every change; markets_changed_at[m] records when
    changed_at: dict[str, int] = field(default_factory=dict)
    tier_cap: int = 3  # the deepest market tier on offer (far-off events: core markets only)
    moved: tuple[str, ...] = ()  # the markets the latest version changed

    def bump(self, names: list[str] | None, all_names: list[str]) -> None:
        self.version += 1
        self.moved = tuple(names if names is not None else all_names)
        for name in self.moved:
            self.changed_at[name] = self.version


@dataclass(slots=True)
class LiveView:
    """What the pricing needs to know about the match right now."""

    spec: SportSpec
    scores: Scores
    progress: float = 0.0
    in_overtime: bool = False
    live: bool = False
    set_index: int = 1  # current set or map (sets sports)


def _scope_rem(scope: tuple[float, float], f: float) -> float:
    a, b = scope
    return 0.0 if f >= b else (b - max(f, a)) / (b - a)


def _scope_score(view: LiveView, mdef: MarketDef) -> tuple[int, int]:
    scores = view.scores
    if mdef.scope == (0.0, 1.0) and mdef.stat == "main":
        return scores.home, scores.away
    periods = scores.periods
    if mdef.stat == "sum":
        if mdef.set_no:
            return periods.get(f"p{mdef.set_no}", periods.get(f"map{mdef.set_no}", (0, 0)))
        h = a = 0
        for key, (ph, pa) in periods.items():
            if key[0] == "p" or key.startswith("map"):
                h += ph
                a += pa
        return h, a
    n = view.spec.periods
    first, last = round(mdef.scope[0] * n) + 1, round(mdef.scope[1] * n)
    h = a = 0
    for i in range(first, last + 1):
        ph, pa = periods.get(f"p{i}", (0, 0))
        h += ph
        a += pa
    return h, a


def _centre(value: float, step: float, half: bool) -> float:
    off = 0.5 if half else 0.0
    return round((value - off) / step) * step + off


def _ml3(margin: float, sigma: float) -> tuple[float, float, float]:
    if sigma < 1e-6:
        return (1.0, 0.0, 0.0) if margin > 0.5 else (0.0, 0.0, 1.0) if margin < -0.5 else (0, 1, 0)
    home = 1.0 - phi((0.5 - margin) / sigma)
    away = phi((-0.5 - margin) / sigma)
    return home, max(0.0, 1.0 - home - away), away


def true_lines(mdef: MarketDef, view: LiveView, truth: EventTruth, alt: int) -> list[Line3]:
    """The lines of one market with their true probabilities; `alt` extra lines each side."""
    spec = view.spec
    walk = truth.walk.get(mdef.name, 0.0)
    f = view.progress if view.live else 0.0
    if view.in_overtime:
        if mdef.kind == M.ML2 and mdef.scope == (0.0, 1.0) and mdef.stat == "main":
            p = phi(0.4 * truth.z + walk)
            return [(None, None, (p, 1.0 - p))]
        return []
    if mdef.set_no:
        if mdef.set_no < view.set_index:
            return []
        rem = 1.0
        if mdef.set_no == view.set_index and view.live:
            h0, a0 = _scope_score(view, mdef)
            rem = max(0.3, 1.0 - (h0 + a0) / max(mdef.total or 10.0, 1.0))
    else:
        rem = _scope_rem(mdef.scope, f)
    if rem <= 0.0:
        return []
    if mdef.stat == "latent":
        total = mdef.total
        done = total * f * (0.8 + 0.4 * unit(truth.salt, len(mdef.name)))
        cur_h = done * (0.5 + 0.08 * truth.z)
        cur_a = done - cur_h
        scope_share = mdef.scope[1] - mdef.scope[0]
        total *= scope_share
    else:
        cur_h, cur_a = _scope_score(view, mdef) if view.live else (0, 0)
        total = mdef.total or spec.total
        if mdef.kind in (M.TEAM_HOME, M.TEAM_AWAY):
            total = spec.total
        if not mdef.set_no:
            total *= mdef.scope[1] - mdef.scope[0]
    k = spec.sigma_k
    root = math.sqrt(max(total, 1e-9))
    rem_total = total * rem
    margin = (cur_h - cur_a) + truth.z * root * rem + walk * root * 0.15
    sigma = k * math.sqrt(max(rem_total, 0.0))
    kind = mdef.kind
    if kind in (M.ML3, M.ML2, M.DC, M.DNB):
        h, d, a = _ml3(margin, sigma)
        if kind == M.ML3:
            return _keep([(None, None, (h, d, a))])
        if kind == M.ML2:
            share = phi(0.4 * truth.z)
            return _keep([(None, None, (h + d * share, a + d * (1 - share)))])
        if kind == M.DNB:
            s = h + a
            return _keep([(None, None, (h / s, a / s))]) if s > 0 else []
        return _keep([(None, label, (p, 1 - p)) for label, p in
                      zip(M.DC_LABELS, (h + d, h + a, d + a), strict=True)])
    if kind == M.SPREAD:
        c = _centre(-margin, mdef.step, mdef.half)
        out: list[Line3] = []
        for i in range(-alt, alt + 1):
            hdp = round(c + i * mdef.step, 2)
            p = phi((margin + hdp) / sigma) if sigma > 1e-6 else float(margin + hdp > 0)
            out.append((hdp, None, (p, 1.0 - p)))
        return _keep(out)
    if kind in (M.TOTALS, M.TEAM_HOME, M.TEAM_AWAY):
        if kind == M.TOTALS:
            expect = cur_h + cur_a + rem_total + walk * root * 0.15
        else:
            mine = cur_h if kind == M.TEAM_HOME else cur_a
            sign = 1 if kind == M.TEAM_HOME else -1
            expect = mine + (total / 2 + sign * truth.z * root / 2) * rem + walk * root * 0.1
            sigma = k * math.sqrt(max(rem_total / 2, 0.0))
        sigma_t = sigma * 1.1
        c = _centre(expect, mdef.step, mdef.half)
        already = cur_h + cur_a if kind == M.TOTALS else \
            (cur_h if kind == M.TEAM_HOME else cur_a)
        out = []
        for i in range(-alt, alt + 1):
            hdp = round(c + i * mdef.step, 2)
            if hdp <= 0 or hdp < already:  # over has already won
                continue
            p = phi((expect - hdp) / sigma_t) if sigma_t > 1e-6 else float(expect > hdp)
            out.append((hdp, None, (p, 1.0 - p)))
        return _keep(out)
    if kind == M.YESNO:
        return _keep([(None, None, _yes_no(mdef, view, truth, rem, walk))])
    if kind == M.PROPS:
        out = []
        for label, share in truth.players:
            mean = mdef.total * share
            expect = mean * f * (0.7 + 0.6 * unit(truth.salt, len(label))) + mean * rem
            sd = 1.1 * math.sqrt(max(mean * rem, 1e-9))
            c = _centre(expect + walk * 0.3, 1.0, True)
            for i in range(-min(alt, 1), min(alt, 1) + 1):
                hdp = c + i
                if hdp > 0:
                    p = phi((expect - hdp) / sd)
                    out.append((hdp, label, (p, 1.0 - p)))
        out.sort(key=lambda line: (line[0] or 0.0, line[1] or ""))
        return _keep(out)
    return []


def _yes_no(
    mdef: MarketDef, view: LiveView, truth: EventTruth, rem: float, walk: float
) -> tuple[float, float]:
    rule = mdef.rule
    if not rule:
        base = min(0.97, max(0.03, mdef.p_yes))
        logit = math.log(base / (1 - base)) + walk * 0.5
        p = 1.0 / (1.0 + math.exp(-logit))
        return p, 1.0 - p
    spec = view.spec
    if rule == "red_card":  # decided once one is shown; else the cards still to come
        shown = sum(view.scores.red_cards or (0, 0)) if view.live else 0
        p = 1.0 if shown else 1.0 - math.exp(-2.0 * spec.red_cards * rem)
        return p, 1.0 - p
    r = truth.z * math.sqrt(spec.total)
    scope_rem = _scope_rem((0.0, 0.5), view.progress if view.live else 0.0) * 0.5 \
        if rule == "btts_ht" else rem
    lam_h = max(0.01, (spec.total / 2 + r / 2) * scope_rem)
    lam_a = max(0.01, (spec.total / 2 - r / 2) * scope_rem)
    if rule == "btts_ht":
        h, a = view.scores.periods.get("p1", (0, 0)) if view.live else (0, 0)
    else:
        h, a = (view.scores.home, view.scores.away) if view.live else (0, 0)
    score_h = 1.0 if h > 0 else 1.0 - math.exp(-lam_h)
    score_a = 1.0 if a > 0 else 1.0 - math.exp(-lam_a)
    p = {
        "btts": score_h * score_a,
        "btts_ht": score_h * score_a,
        "home_scores": score_h,
        "away_scores": score_a,
        "clean_home": 1.0 - score_a,
        "clean_away": 1.0 - score_h,
        "win_nil_home": (1.0 - score_a) * score_h * 0.95,
        "win_nil_away": (1.0 - score_h) * score_a * 0.95,
    }[rule]
    return p, 1.0 - p


def _keep(lines: list[Line3]) -> list[Line3]:
    """Withdraw lines whose outcome is (nearly) decided."""
    return [line for line in lines if max(line[2]) < M.DECIDED and min(line[2]) > 0.004]

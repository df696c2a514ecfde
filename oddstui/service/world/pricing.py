"""How one bookmaker turns true probabilities into its prices.

price = 1 / (p * (1 + margin)), moved by the book's own static opinion (a deterministic
per-line offset) and a little jitter at each requote, then rounded to the book's precision.

A soft book also misprices a few of its lines: one side priced above the true price by an edge
drawn from a thin-tailed spread (most under 5 %). Which lines are mispriced changes every
`MISPRICING_EPOCH` simulated seconds, when the book next requotes them. These are the steady
value bets and small arbitrages of a real board; the big edges come from books that have not
yet followed a score (see `World._follow`).
"""

from __future__ import annotations

import math
import random
import zlib

from oddstui.service.world import markets as M
from oddstui.service.world.markets import MARKET_IDS, MarketDef
from oddstui.service.world.model import Bookmaker, Line
from oddstui.service.world.truth import Line3, mix

MIN_PRICE, MAX_PRICE = 1.01, 501.0
IN_PLAY_MARGIN = 2.5
MISPRICED_SHARE = 0.012  # of a soft book's lines, at any time
MISPRICING_EPOCH = 1800.0  # simulated seconds a mispricing lasts at most
EDGE_FLOOR, EDGE_MEAN, EDGE_CAP = 0.003, 0.017, 0.15  # the edge over the true price


def book_quotes_market(book: Bookmaker, mdef: MarketDef, event_id: int) -> bool:
    """Whether this book offers this market on this event (deterministic)."""
    if mdef.tier == 0:
        return True
    if mdef.tier > book.tier:
        return False
    coverage = (0.95, 0.8, 0.6)[min(mdef.tier, 3) - 1]
    return mix(book.id, event_id, MARKET_IDS[mdef.name]) < coverage * 4294967296.0


_LABEL_HASH: dict[str, int] = {}


def _label_hash(label: str | None) -> int:
    if label is None:
        return 0
    h = _LABEL_HASH.get(label)
    if h is None:
        h = _LABEL_HASH[label] = zlib.crc32(label.encode())
    return h


def _normal_table(size: int) -> list[float]:
    """Deterministic, roughly normal numbers (sd 1): the sum of three uniforms, rescaled."""
    rng = random.Random(20261121)
    return [((rng.random() + rng.random() + rng.random()) - 1.5) * 2.0 for _ in range(size)]


_TABLE_BITS = 16
_TABLE = _normal_table(1 << _TABLE_BITS)
_MASK = (1 << _TABLE_BITS) - 1
_UNIFORM_SD = 3.0**0.5 * 2.0  # (random() - 0.5) times this has sd 1


def _opinions(base: int, hdp: float | None, label: str | None, sides: int) -> tuple[float, ...]:
    """A book's fixed, deterministic offsets (sd 1) on each side of one line."""
    h = base ^ (int((hdp or 0.0) * 4) * 0x9E3779B1) ^ _label_hash(label)
    h = ((h * 0x2C1B3C6D) >> 7) & 0xFFFFFFFF
    if sides == 2:
        return (_TABLE[h & _MASK], _TABLE[(h >> 16) & _MASK])
    return (_TABLE[h & _MASK], _TABLE[(h >> 16) & _MASK], _TABLE[(h >> 8) & _MASK])


def _mispriced_side(base: int, hdp: float | None, label: str | None, sides: int,
                    epoch: int) -> tuple[int, float] | None:
    """The side of this line that the book prices above the truth in this epoch, and by how
    much (a share of the true price), or None for a line priced as the book means to."""
    h = mix(base, int((hdp or 0.0) * 4) & 0xFFFFFFFF, _label_hash(label), epoch, 17)
    if h >= MISPRICED_SHARE * 4294967296.0:
        return None
    u = mix(h, 3) / 4294967296.0
    edge = EDGE_FLOOR - EDGE_MEAN * math.log(1.0 - u)
    return h % sides, min(edge, EDGE_CAP)


def mispricing_epoch(now: float | None) -> int:
    return 0 if now is None else int(now // MISPRICING_EPOCH)


def price_lines(
    book: Bookmaker, mdef: MarketDef, lines: list[Line3], event_id: int,
    rng: random.Random | None, jitter: float = 0.3, live: bool = False, epoch: int = 0,
) -> list[Line]:
    """The book's lines for these true lines; `rng=None` quotes without jitter. In play, soft
    books widen their margin. `epoch` picks which lines a soft book misprices."""
    sides = M.SIDES[mdef.kind]
    count = len(sides)
    base = mix(book.id, event_id, MARKET_IDS[mdef.name])
    scale = 1.0 + book.margin * (IN_PLAY_MARGIN if live and not book.sharp else 1.0)
    noise = book.noise
    wobble = noise * jitter * _UNIFORM_SD
    factor = 10**book.precision
    stake = book.max_stake if mdef.kind in (M.ML3, M.ML2) else None
    rand = rng.random if rng is not None else None
    out: list[Line] = []
    for hdp, label, probs in lines:
        opinions = _opinions(base, hdp, label, count)
        mispriced = None if book.sharp else _mispriced_side(base, hdp, label, count, epoch)
        prices: dict[str, float] = {}
        for i in range(count):
            move = opinions[i] * noise
            if mispriced is not None and mispriced[0] == i:
                move = scale - 1.0 + mispriced[1]
            if rand is not None:
                move += (rand() - 0.5) * wobble
            raw = (1.0 + move) / (probs[i] * scale)
            raw = MIN_PRICE if raw < MIN_PRICE else MAX_PRICE if raw > MAX_PRICE else raw
            prices[sides[i]] = round(raw * factor) / factor
        out.append(Line(prices, hdp, label, stake))
    return out

"""How one bookmaker turns true probabilities into its prices.

price = 1 / (p * (1 + margin)), moved by the book's own static opinion (a deterministic
per-line offset) and a little jitter at each requote, then rounded to the book's precision.

A soft book also misprices a few of its lines: one side priced above the true price by an edge
drawn from a thin-tailed spread (most under 5 %). Which lines are mispriced changes every
`MISPRICING_EPOCH` simulated seconds, when the book next requotes them. These are the steady
value bets and small arbitrages of a real board; the big edges come from books that have not
yet followed a score (see `World._follow`).

No line of any book sums under 100 %: a book never lets a line's hold fall below its floor
(`FLOOR_SHARE` of its margin); a misprice keeps its generous side and the book shortens the
others. Exchanges quote on the exchange tick ladder, back and lay: the lay price one or two ticks
above the back (`layHome`, `layAway`, ...).
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
MISPRICED_SHARE = 0.02  # of a soft book's lines, at any time
MISPRICING_EPOCH = 1800.0  # simulated seconds a mispricing lasts at most
FLOOR_SHARE = 0.5  # the least hold of any line, as a share of the book's margin
EXCHANGE_NAMES = ("Betdaq", "Matchbook", "Smarkets")
# The exchange tick ladder (MATHS.md): (up to this price, step).
LADDER = ((2.0, 0.01), (3.0, 0.02), (4.0, 0.05), (6.0, 0.1), (10.0, 0.2), (20.0, 0.5),
          (30.0, 1.0), (50.0, 2.0), (100.0, 5.0), (1000.0, 10.0))
EDGE_FLOOR, EDGE_MEAN, EDGE_CAP = 0.003, 0.017, 0.08  # the edge over the true price:
# big edges come only from books that lag a score, and close within seconds


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


def _line_hash(base: int, hdp: float | None, label: str | None) -> int:
    h = base ^ (int((hdp or 0.0) * 4) * 0x9E3779B1) ^ _label_hash(label)
    return ((h * 0x2C1B3C6D) >> 7) & 0xFFFFFFFF


def _opinions(h: int, sides: int) -> tuple[float, ...]:
    """A book's fixed, deterministic offsets (sd 1) on each side of one line (`h`: its hash)."""
    if sides == 2:
        return (_TABLE[h & _MASK], _TABLE[(h >> 16) & _MASK])
    return (_TABLE[h & _MASK], _TABLE[(h >> 16) & _MASK], _TABLE[(h >> 8) & _MASK])


def _mispriced_side(h: int, sides: int, epoch: int) -> tuple[int, float] | None:
    """The side of the line with hash `h` that the book prices above the truth in this epoch,
    and by how much (a share of the true price), or None for a line priced as the book means."""
    h = (((h ^ (epoch * 0x85EBCA6B)) & 0xFFFFFFFF) * 0xC2B2AE35 >> 3) & 0xFFFFFFFF
    if h >= MISPRICED_SHARE * 4294967296.0:
        return None
    u = ((h * 0x27D4EB2F) & 0xFFFFFFFF) / 4294967296.0
    edge = EDGE_FLOOR - EDGE_MEAN * math.log(1.0 - u)
    return (h >> 8) % sides, min(edge, EDGE_CAP)


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
    floor = 1.0 + book.margin * FLOOR_SHARE
    exchange = is_exchange(book)
    out: list[Line] = []
    for hdp, label, probs in lines:
        line_hash = _line_hash(base, hdp, label)
        opinions = _opinions(line_hash, count)
        mispriced = None if book.sharp else _mispriced_side(line_hash, count, epoch)
        raws: list[float] = []
        for i in range(count):
            move = opinions[i] * noise
            if mispriced is not None and mispriced[0] == i:
                move = scale - 1.0 + mispriced[1]
            if rand is not None:
                move += (rand() - 0.5) * wobble
            raw = (1.0 + move) / (probs[i] * scale)
            raws.append(MIN_PRICE if raw < MIN_PRICE else MAX_PRICE if raw > MAX_PRICE else raw)
        rounded = [round(raw * factor) / factor for raw in raws]
        if sum(1.0 / p for p in rounded) < floor:
            rounded = _held(raws, floor, None if mispriced is None else mispriced[0], factor)
        if exchange:
            rounded = [_tick_down(p) for p in rounded]
        prices = dict(zip(sides, rounded, strict=True))
        if exchange:
            for i, side in enumerate(sides):
                ticks = 1 + (line_hash >> (20 + i)) % 2
                prices["lay" + side.capitalize()] = _tick_up(rounded[i], ticks)
        out.append(Line(prices, hdp, label, stake))
    return out


def is_exchange(book: Bookmaker) -> bool:
    return "Exchange" in book.name or book.name in EXCHANGE_NAMES


def _held(raws: list[float], floor: float, keep: int | None, factor: float) -> list[float]:
    """Prices whose implied probabilities sum to at least `floor`: the sides other than `keep`
    (a misprice the book means to offer) are shortened, or every side when that cannot do it
    within reason; then every price is rounded down (which only adds to the sum)."""
    held = raws
    if keep is not None:
        fixed = 1.0 / raws[keep]
        others = sum(1.0 / r for i, r in enumerate(raws) if i != keep)
        k = (floor - fixed) / others  # the other sides' implied probabilities times k
        if 1.0 <= k <= 1.5:
            held = [r if i == keep else max(MIN_PRICE, r / k) for i, r in enumerate(raws)]
    total = sum(1.0 / r for r in held)
    if total < floor:
        held = [max(MIN_PRICE, r * total / floor) for r in held]
    return [max(MIN_PRICE, math.floor(r * factor + 1e-9) / factor) for r in held]


def _step(price: float) -> float:
    for top, step in LADDER:
        if price < top - 1e-9:
            return step
    return LADDER[-1][1]


def _tick_down(price: float) -> float:
    """The ladder price at or below `price`."""
    price = max(MIN_PRICE, min(price, 1000.0))
    step = _step(price)
    low = next((top for top, s in reversed(LADDER) if top <= price + 1e-9 and s < step), 1.0)
    base = max(low, 1.0)
    return round(base + math.floor((price - base) / step + 1e-9) * step, 2)


def _tick_up(price: float, ticks: int) -> float:
    """`ticks` ladder steps above `price` (a ladder price)."""
    for _ in range(ticks):
        price = round(price + _step(price), 2)
    return price

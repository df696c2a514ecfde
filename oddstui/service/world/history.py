"""Price history per (event, bookie, market, line).

What happened while the world ran is recorded: every price change of a line is a tick
`(ts, prices)`. What happened before (an event's quotes open days before kickoff, long before the
process started) is pre-history: generated on demand, deterministically, from the line's first
known price (its anchor) backwards to the event's opening time. The pre-history of a line drifts
the same way at every bookmaker, so a market that "dropped" dropped everywhere.

Memory is bounded: at most `MAX_TICKS` recorded ticks per line, at most `max_ticks` recorded
ticks in all (the oldest go first: a line keeps its anchor, so its opening and current prices
stay right and only the oldest steps of its path are lost), and an event's record is dropped when
it settles (its closing prices stay in the event).

Query helpers (`World` wraps them with the current prices): `sequence()` (opening tick and all
ticks, for /odds/movements), `price_at()` (for dropping-odds windows).
"""

from __future__ import annotations

import bisect
import math
from collections import deque
from dataclasses import dataclass

from oddstui.service.world.truth import mix, unit

MAX_TICKS = 64
MAX_RECORDED_TICKS = 150_000  # about 40 MB of ticks across every line
MIN_PRICE, MAX_PRICE = 1.01, 501.0
Prices = dict[str, float]
Tick = tuple[float, Prices]  # (simulated seconds, side -> decimal price)
LineKey = tuple[str, str, float | None, str | None]  # (bookie, market, hdp, label)


@dataclass(slots=True)
class LineHistory:
    anchor: Tick  # the price the line had when the world first saw it
    ticks: list[Tick]  # recorded changes after the anchor, oldest first


class History:
    def __init__(self, seed: int, max_ticks: int = MAX_RECORDED_TICKS) -> None:
        self.seed = seed
        self.max_ticks = max_ticks
        self._lines: dict[int, dict[LineKey, LineHistory]] = {}
        # Every recorded tick in the order recorded, to drop the oldest when over `max_ticks`.
        # An entry whose tick already went (the line's own cap, a settled event) is skipped.
        self._order: deque[tuple[int, LineKey, float]] = deque()

    # -- recording ----------------------------------------------------------------------------
    def record(self, event_id: int, key: LineKey, before: Tick | None, after: Tick) -> None:
        """A line changed from `before` (None: it is new) to `after`."""
        lines = self._lines.setdefault(event_id, {})
        hist = lines.get(key)
        if hist is None:
            if before is None:
                lines[key] = LineHistory(after, [])
                return
            hist = lines[key] = LineHistory(before, [])
        ticks = hist.ticks
        ticks.append(after)
        if len(ticks) > MAX_TICKS:
            del ticks[: len(ticks) - MAX_TICKS]
        order = self._order
        order.append((event_id, key, after[0]))
        while len(order) > self.max_ticks:
            self._drop_oldest(*order.popleft())

    def _drop_oldest(self, event_id: int, key: LineKey, ts: float) -> None:
        lines = self._lines.get(event_id)
        hist = lines.get(key) if lines else None
        if hist is not None and hist.ticks and hist.ticks[0][0] == ts:
            del hist.ticks[0]

    def has_event(self, event_id: int) -> bool:
        return event_id in self._lines

    def drop_event(self, event_id: int) -> None:
        self._lines.pop(event_id, None)

    def recorded(self, event_id: int, key: LineKey) -> LineHistory | None:
        lines = self._lines.get(event_id)
        return lines.get(key) if lines else None

    def line_count(self) -> int:
        return sum(len(lines) for lines in self._lines.values())

    def tick_count(self) -> int:
        return sum(len(h.ticks) for lines in self._lines.values() for h in lines.values())

    # -- reading ------------------------------------------------------------------------------
    def sequence(
        self, event_id: int, key: LineKey, open_ts: float, start: float, current: Tick,
        precision: int,
    ) -> list[Tick]:
        """Every tick of the line, opening first: pre-history, anchor, recorded changes.
        `current` is the line's price now (the anchor when nothing was recorded). A line first
        seen after `start` (in play, after the world first quoted the event) has no
        pre-history: it opened then."""
        hist = self.recorded(event_id, key)
        anchor = hist.anchor if hist else current
        if anchor[0] > start:
            return [anchor, *(hist.ticks if hist else [])]
        ticks = self._pre_history(event_id, key, open_ts, anchor, precision)
        ticks.append(anchor)
        if hist:
            ticks.extend(hist.ticks)
        return ticks

    @staticmethod
    def price_at(ticks: list[Tick], ts: float) -> Tick | None:
        """The tick in force at `ts` (None before the line opened)."""
        i = bisect.bisect_right([t for t, _ in ticks], ts)
        return ticks[i - 1] if i else None

    def _pre_history(
        self, event_id: int, key: LineKey, open_ts: float, anchor: Tick, precision: int
    ) -> list[Tick]:
        anchor_ts, prices = anchor
        span = anchor_ts - open_ts
        if span <= 60.0:
            return []
        _, market, hdp, label = key
        line_hash = mix(self.seed, event_id, sum(map(ord, market)), int((hdp or 0) * 4) + 999,
                        sum(map(ord, label or "")))
        book_hash = mix(line_hash, sum(map(ord, key[0])))
        count = 3 + line_hash % 9
        sides = list(prices)
        implied = [1.0 / p for p in prices.values()]
        total = sum(implied)
        # How much the first side's price has shortened since the opening: most lines drift a
        # little; about one in six dropped hard.
        hard = unit(line_hash, 7) < 0.17
        drop = (0.08 + 0.25 * unit(line_hash, 8)) if hard else 0.04 * (unit(line_hash, 9) - 0.5)
        if unit(line_hash, 10) < 0.5 and len(sides) > 1:
            side = 1
        else:
            side = 0
        times = sorted(open_ts + span * unit(line_hash, 20 + i) * 0.98 for i in range(count))
        times[0] = open_ts
        factor = 10**precision
        out: list[Tick] = []
        for i, ts in enumerate(times):
            left = 1.0 - i / count  # the share of the drift still to come
            wobble = 0.012 * (unit(book_hash, 40 + i) - 0.5)
            lift = math.exp(drop * left + wobble)  # the side's price then, relative to now
            q = list(implied)
            q[side] = implied[side] / lift
            rest = total - q[side]
            others = total - implied[side]
            if others > 0 and rest > 0.02 * len(q):
                for j in range(len(q)):
                    if j != side:
                        q[j] = implied[j] * rest / others
            else:
                q = list(implied)
            out.append((ts, {s: min(MAX_PRICE, max(MIN_PRICE, round(factor / qj) / factor))
                             for s, qj in zip(sides, q, strict=True)}))
        return out

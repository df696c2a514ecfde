"""The incremental scans agree with the desk's full ones at every step: the best price per side
kept one bookmaker's change at a time equals `best_prices` over every bookmaker, and the
arbitrage the backtest holds open on a line is the one `book.arbitrage` finds there."""

from __future__ import annotations

import random

import pytest

from oddstui.backtest.arbitrages import ArbitrageTracker, legs_key
from oddstui.backtest.best_index import ArbitrageCheck, BestIndex
from oddstui.backtest.feeding import BookFeeder
from oddstui.book.arbitrage import best_prices, is_lay
from tests.backtest.built import ml, snapshot, totals, updated

BOOKS = ["A", "B", "C", "D", "Pinnacle"]


def _markets(rng: random.Random) -> list[dict[str, object]]:
    price = lambda: round(rng.choice([1.5, 1.8, 1.9, 2.0, 2.1, 2.2, 2.5]), 2)  # noqa: E731 - ties
    out = []
    if rng.random() < 0.9:
        out.append(ml(price(), price()))
    lines = [(hdp, price(), price()) for hdp in (2.5, 3.5) if rng.random() < 0.8]
    if lines:
        out.append(totals(*lines))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_incremental_best_prices_and_arbitrages_match_full_scans(seed: int) -> None:
    rng = random.Random(seed)
    feeder = BookFeeder()
    book = feeder.book
    index = BestIndex(book)
    check = ArbitrageCheck()
    tracker = ArbitrageTracker()
    start = snapshot(0.0, {5: {name: _markets(rng) for name in BOOKS}})
    touched = feeder.apply(start)
    for key in touched.lines:
        tracker.observe(key, check(key[1], index.rebuild(key), False), 0.0)
    compared = 0
    for step in range(1, 400):
        bookie = rng.choice(BOOKS)
        touched = feeder.apply(updated(float(step), step, 5, bookie, _markets(rng)))
        for key, (old, new) in touched.prices.items():
            best = index.update(key, bookie, old, new)
            if best is not None:
                tracker.observe(key, check(key[1], best, False), float(step))
        for key in touched.lines:
            quotes = book.quotes(*key)
            sides = sorted({s for prices in quotes.values() for s in prices if not is_lay(s)})
            assert index._best.get(key, {}) == best_prices(quotes, sides)
            held = tracker._open.get(key)
            arb = book.arbitrage(*key)
            assert (held is None) == (arb is None)
            if held is not None and arb is not None:
                assert held.legs_key == legs_key(arb)
            compared += 1
    assert compared > 400
    assert tracker.seen, "prices this loose must make an arbitrage now and then"

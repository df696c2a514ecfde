"""The backtest's incremental books and scans agree with the desk's at every step: the line
store holds what the desk's `OddsBook` holds after the same messages, the best price per side
kept one bookmaker's change at a time equals `best_prices` over every bookmaker, and the
arbitrage the backtest holds open on a line is the one `book.arbitrage` finds there."""

from __future__ import annotations

import random

import orjson
import pytest

from oddstui.api.messages import iter_frame
from oddstui.api.models import parse_odds_record
from oddstui.backtest.arbitrages import ArbitrageTracker, legs_key
from oddstui.backtest.best_index import ArbitrageCheck, BestIndex
from oddstui.backtest.feeding import BookFeeder
from oddstui.book.arbitrage import best_prices, is_lay
from oddstui.book.oddsbook import OddsBook
from oddstui.recording.records import FeedMessage, Snapshot
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
        if rng.random() < 0.1:  # a line with no prices: no quote, but a line of the market
            out[-1]["odds"].append({"hdp": 4.5})
    return out


def _message(rng: random.Random, step: int, bookie: str) -> FeedMessage:
    record = updated(float(step), step, 5, bookie, _markets(rng))
    if rng.random() < 0.05:  # the bookmaker takes its markets off the event
        record.message.update(type=rng.choice(["deleted", "no_markets"]), markets=[])
    return record


@pytest.mark.parametrize("complete_markets", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_incremental_best_prices_and_arbitrages_match_full_scans(
    seed: int, complete_markets: bool
) -> None:
    rng = random.Random(seed)
    feeder = BookFeeder()
    book = OddsBook(clock=lambda: 0.0)  # the desk's, fed the same records
    feeder.lines.complete_markets = book.complete_markets = complete_markets
    index = BestIndex(feeder.lines)
    check = ArbitrageCheck()
    tracker = ArbitrageTracker()
    start = snapshot(0.0, {5: {name: _markets(rng) for name in BOOKS}})
    touched = feeder.apply(start)
    desk_applies(book, start)
    for key in touched.lines:
        tracker.observe(key, check(key[1], index.rebuild(key), False), 0.0)
    compared = 0
    for step in range(1, 400):
        bookie = rng.choice(BOOKS)
        record = _message(rng, step, bookie)
        touched = feeder.apply(record)
        desk_applies(book, record)
        for key, (old, new) in touched.prices.items():
            best = index.update(key, bookie, old, new)
            if best is not None:
                tracker.observe(key, check(key[1], best, False), float(step))
        every_line = {(5, name, line) for name in ("ML", "Totals") for line in book.lines(5, name)}
        assert feeder.lines.lines_of([5]) == every_line
        assert all(feeder.lines.quotes(key) == book.quotes(*key) for key in every_line)
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


def desk_applies(book: OddsBook, record: Snapshot | FeedMessage) -> None:
    if isinstance(record, Snapshot):
        book.install_snapshot([parse_odds_record(raw) for raw in record.odds])
        return
    for message in iter_frame(orjson.dumps(record.message), record.time):
        assert message is not None
        book.apply(message)

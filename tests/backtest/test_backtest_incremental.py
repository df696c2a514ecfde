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
from oddstui.backtest.best_index import ArbitrageCheck, rebuild, update
from oddstui.backtest.feeding import BookFeeder
from oddstui.book.arbitrage import best_prices, is_lay
from oddstui.book.oddsbook import OddsBook
from oddstui.recording.records import FeedMessage, Snapshot
from tests.backtest.built import as_read, ml, snapshot, totals, updated

BOOKS = ["A", "B", "C", "D", "Pinnacle"]


class Messages:
    """Random odds messages from five bookmakers on one event, with what makes a line store
    slip: markets resent unchanged (their text is the one held), lines that come, go and change
    places, a line with no prices, a line listed twice, a market listed twice, a suspended price
    (the fast decoder refuses it: the general path takes the message), and bookmakers taking
    all their markets off."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.last: dict[str, list[dict[str, object]]] = {}

    def price(self) -> float:
        return self.rng.choice([1.5, 1.8, 1.9, 2.0, 2.1, 2.2, 2.5])  # few: ties and repeats

    def markets(self, bookie: str) -> list[dict[str, object]]:
        rng = self.rng
        before = {str(market["name"]): market for market in self.last.get(bookie, [])}
        out = []
        if rng.random() < 0.9:
            out.append(before.get("ML") if rng.random() < 0.5 else None)
            out[-1] = out[-1] or ml(self.price(), self.price())
        if rng.random() < 0.8:
            if "Totals" in before and rng.random() < 0.5:
                out.append(before["Totals"])  # resent as it was
            else:
                hdps = rng.sample([2.5, 3.5, 4.5], rng.randint(1, 3))  # in any order
                market = totals(*[(hdp, self.price(), self.price()) for hdp in hdps])
                odds = market["odds"]
                if rng.random() < 0.1:  # a line with no prices: no quote, but a line
                    odds.append({"hdp": 5.5})
                if rng.random() < 0.05:  # a line listed twice: the later one is the quote
                    odds.append({"hdp": hdps[0], "over": self.price(), "under": self.price()})
                if rng.random() < 0.03:  # suspended
                    odds[0]["over"] = 1.0
                out.append(market)
        if out and rng.random() < 0.05:  # a market listed twice, changed in between
            out.insert(0, ml(self.price(), self.price()) if out[0]["name"] == "ML" else out[-1])
        self.last[bookie] = out
        return out

    def next(self, step: int) -> tuple[str, FeedMessage]:
        bookie = self.rng.choice(BOOKS)
        message = updated(float(step), step, 5, bookie, self.markets(bookie)).message
        if self.rng.random() < 0.05:  # the bookmaker takes its markets off the event
            message.update(type=self.rng.choice(["deleted", "no_markets"]), markets=[])
            self.last.pop(bookie, None)
        return bookie, as_read(float(step), step, message)


@pytest.mark.parametrize("complete_markets", [False, True])
@pytest.mark.parametrize("seed", range(8))
def test_incremental_best_prices_and_arbitrages_match_full_scans(
    seed: int, complete_markets: bool
) -> None:
    messages = Messages(seed)
    feeder = BookFeeder()
    book = OddsBook(clock=lambda: 0.0)  # the desk's, fed the same records
    feeder.lines.complete_markets = book.complete_markets = complete_markets
    check = ArbitrageCheck()
    tracker = ArbitrageTracker()
    start = snapshot(0.0, {5: {name: messages.markets(name) for name in BOOKS}})
    touched = feeder.apply(start)
    desk_applies(book, start)
    for key in touched.lines:
        state = feeder.lines.state(key)
        tracker.observe(state, check(key[1], rebuild(state), False), 0.0)
    compared = 0
    for step in range(1, 500):
        bookie, record = messages.next(step)
        touched = feeder.apply(record)
        desk_applies(book, record)
        for state, old, new in touched.changes:
            best = update(state, bookie, old, new)
            if best is not None:
                tracker.observe(state, check(state.key[1], best, False), float(step))
        every_line = {(5, name, line) for name in ("ML", "Totals") for line in book.lines(5, name)}
        assert feeder.lines.lines_of([5]) == every_line
        assert all(feeder.lines.quotes(key) == book.quotes(*key) for key in every_line)
        for key in touched.line_keys():
            quotes = book.quotes(*key)
            sides = sorted({s for prices in quotes.values() for s in prices if not is_lay(s)})
            state = feeder.lines.state(key)
            assert state.best == best_prices(quotes, sides)
            arb = book.arbitrage(*key)
            assert (state.arbitrage is None) == (arb is None)
            if state.arbitrage is not None and arb is not None:
                assert state.arbitrage.legs_key == legs_key(arb)
            compared += 1
    assert compared > 500
    assert tracker.seen, "prices this loose must make an arbitrage now and then"


def test_a_market_resent_unchanged_is_not_decoded_again() -> None:
    feeder = BookFeeder()
    markets = [ml(2.0, 1.9), totals((2.5, 1.9, 1.9))]
    feeder.apply(as_read(1.0, 1, updated(1.0, 1, 5, "A", markets).message))
    again = feeder.apply(as_read(2.0, 2, updated(2.0, 2, 5, "A", markets).message))
    assert again.bookmaker == "A" and again.changes == []
    held = feeder.lines._held[(5, "A")]
    assert set(held.names.values()) == {"ML", "Totals"}, "both held with the text they came in"
    moved = feeder.apply(as_read(3.0, 3, updated(3.0, 3, 5, "A", [ml(2.1, 1.9)]).message))
    assert [(state.key, old, new) for state, old, new in moved.changes] == [
        ((5, "ML", (None, None)), {"home": 2.0, "away": 1.9}, {"home": 2.1, "away": 1.9})
    ]
    assert set(held.names.values()) == {"ML", "Totals"} and len(held.names) == 2


def test_markets_taken_off_and_sent_again_come_back_on_their_lines() -> None:
    feeder = BookFeeder()
    markets = [ml(2.0, 1.9), totals((2.5, 1.9, 1.9), (3.5, 2.4, 1.5))]
    first = feeder.apply(as_read(1.0, 1, updated(1.0, 1, 5, "A", markets).message))
    off = updated(2.0, 2, 5, "A", [])
    off.message.update(type="no_markets")
    gone = feeder.apply(as_read(2.0, 2, off.message))
    assert {state.key for state, _, _ in gone.changes} == first.line_keys()
    assert all(new is None for _, _, new in gone.changes) and len(gone.changes) == 3
    back = feeder.apply(as_read(3.0, 3, updated(3.0, 3, 5, "A", markets).message))
    # As the first time: every line quoted afresh, from nothing, on the same line states.
    assert [(id(state), old, new) for state, old, new in back.changes] == [
        (id(state), old, new) for state, old, new in first.changes]
    assert feeder.lines.quotes((5, "Totals", (3.5, None))) == {"A": {"over": 2.4, "under": 1.5}}
    moved = [totals((3.5, 2.4, 1.5), (2.5, 1.9, 1.9))]  # the same lines, in another order
    feeder.apply(as_read(4.0, 4, off.message))
    again = feeder.apply(as_read(5.0, 5, updated(5.0, 5, 5, "A", moved).message))
    assert [(state.key, old) for state, old, _ in again.changes] == [
        ((5, "Totals", (3.5, None)), None), ((5, "Totals", (2.5, None)), None)]


def desk_applies(book: OddsBook, record: Snapshot | FeedMessage) -> None:
    if isinstance(record, Snapshot):
        book.install_snapshot([parse_odds_record(raw) for raw in record.odds])
        return
    # non-empty: a feed record's frame holds its message
    for message in iter_frame(orjson.dumps(record.message), record.time):
        assert message is not None
        book.apply(message)

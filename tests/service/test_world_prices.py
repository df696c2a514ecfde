"""Credible prices: no book quotes a line whose implied probabilities sum under 100 %, and an
exchange quotes back and lay, the lay one or two ticks above the back on the exchange ladder.

A property over the pricing of every kind of market by every kind of book (sharp, exchange,
big, small; before and in play; with and without a misprice), then the same over every line of
a whole world as it runs.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui.service.world import World
from oddstui.service.world import markets as M
from oddstui.service.world.catalog import build_catalog
from oddstui.service.world.markets import MARKETS_BY_SPORT
from oddstui.service.world.model import Bookmaker, Line
from oddstui.service.world.pricing import is_exchange, price_lines

CATALOG = build_catalog(random.Random(1), 265)
BOOKS = list(CATALOG.bookmakers.values())
EXCHANGES = [b for b in BOOKS if is_exchange(b)]
DEFS = [m for ms in MARKETS_BY_SPORT.values() for m in ms]
START = 1_790_000_000.0


def ladder_step(price: float) -> float:
    for top, step in ((2, 0.01), (3, 0.02), (4, 0.05), (6, 0.1), (10, 0.2), (20, 0.5),
                      (30, 1.0), (50, 2.0), (100, 5.0)):
        if price < top - 1e-9:
            return step
    return 10.0


def check_line(book: Bookmaker, kind: str, line: Line) -> None:
    sides = M.SIDES[kind]
    backs = [line.prices[side] for side in sides]
    assert sum(1.0 / p for p in backs) >= 1.0, (book.name, kind, line)
    if is_exchange(book):
        # non-empty: a line has two sides or more
        for side, back in zip(sides, backs, strict=True):
            lay = line.prices["lay" + side.capitalize()]
            assert lay > back, (book.name, line)
            ticks, price = 0, back
            while price < lay - 1e-9:
                price = round(price + ladder_step(price), 2)
                ticks += 1
            assert price == pytest.approx(lay) and ticks in (1, 2), (book.name, line)
    else:
        assert not any(side.startswith("lay") for side in line.prices), (book.name, line)


@settings(max_examples=400, deadline=None)
@given(
    book=st.sampled_from(BOOKS),
    exchange=st.sampled_from(EXCHANGES),
    mdef=st.sampled_from(DEFS),
    shares=st.lists(st.floats(0.01, 1.0), min_size=3, max_size=3),
    event_id=st.integers(61_000_000, 70_000_000),
    epoch=st.integers(0, 2_000_000),
    live=st.booleans(),
    jitter=st.one_of(st.none(), st.integers(0, 2**32)),
)
def test_no_line_sums_under_100_percent_and_exchanges_lay_above_back(
    book: Bookmaker, exchange: Bookmaker, mdef: M.MarketDef, shares: list[float], event_id: int,
    epoch: int, live: bool, jitter: int | None,
) -> None:
    count = len(M.SIDES[mdef.kind])
    total = sum(shares[:count])
    probabilities = tuple(share / total for share in shares[:count])
    rng = None if jitter is None else random.Random(jitter)
    for who in (book, exchange):
        lines = price_lines(who, mdef, [(2.5, None, probabilities)], event_id, rng, live=live,
                            epoch=epoch)
        assert len(lines) == 1
        check_line(who, mdef.kind, lines[0])


def test_every_line_of_a_running_world_is_credible() -> None:
    world = World(seed=6, start=START, speed=30.0, updates_per_second=400.0,
                  real_clock=lambda: 0.0)
    world.warm()  # every live event and every one kicking off within two hours
    checked = {"book": 0, "exchange": 0}
    for _ in range(3):
        world.advance(20.0)
        for event in world.quoted_events():
            for name in event.bookmakers:
                book = world.bookmakers[name]
                kinds = {m.name: m.kind for m in MARKETS_BY_SPORT[event.sport.slug]}
                for market in world.book_markets(event, name):
                    for line in market.lines:
                        check_line(book, kinds[market.name], line)
                        checked["exchange" if is_exchange(book) else "book"] += 1
    assert checked["book"] > 10_000 and checked["exchange"] > 1_000, checked


@pytest.mark.parametrize("seed", [6, 7])
def test_no_book_quotes_two_lines_on_one_line_key(seed: int) -> None:
    """One (hdp, label) is one line: on 2026-11-28 seed 7's world plays a match whose two
    players share a name, whose props once made two lines on one key (and a false arbitrage
    across them)."""
    world = World(seed=seed, start=1_795_830_000.0, speed=30.0, updates_per_second=400.0,
                  real_clock=lambda: 0.0)
    world.warm()
    markets = 0
    for event in world.quoted_events():
        for name in event.bookmakers:
            for market in world.book_markets(event, name):
                keys = [(line.hdp, line.label) for line in market.lines]
                assert len(keys) == len(set(keys)), (event.id, name, market.name, keys)
                markets += 1
    assert markets > 1_000, markets

"""One fair price: a line of the built-in world priced by every consumer of `book.fair_policy`
(the service's value bets, the Event screen's edges, the Value board, the backtest, the bet
log's closing-line value and the bookmaker-intelligence engine behind `oddstui books` and the
Stale lines board) gives the same number."""

from __future__ import annotations

import json

import pytest

from oddstui.api.models.odds import parse_odds_record
from oddstui.backtest.line_state import LineState
from oddstui.backtest.value_bets import ValueTracker
from oddstui.betlog.bets import BetLeg
from oddstui.book.arbitrage import sport_has_draw
from oddstui.book.fair_policy import FAIR_POLICY
from oddstui.book.value import expected_value
from oddstui.intel.engine import IntelEngine
from oddstui.service.derived.indexes import Indexes
from oddstui.service.world import World
from oddstui.tui.bets.settling import with_closing
from oddstui.tui.boards.value.value_rows import fair_from_sharp
from oddstui.tui.event.fair_edges import fair_line

SIDES = ("home", "draw", "away", "over", "under", "yes", "no")


def first_value_bet(world: World, indexes: Indexes) -> dict:
    books = [name for name, book in world.bookmakers.items() if book.active]
    for _ in range(60):
        for bookie in books:
            if FAIR_POLICY.is_sharp(bookie):
                continue
            items = json.loads(indexes.value.items(bookie, None, None, False))
            if items:
                return items[0]
        world.step()
    raise AssertionError("the world made no value bet in 60 steps")


def test_every_consumer_prices_one_line_at_the_same_fair_price() -> None:
    world = World(seed=5, speed=20, bookmakers=40, updates_per_second=1500)
    indexes = Indexes.attach(world)
    item = first_value_bet(world, indexes)
    event = world.events[item["eventId"]]
    reference = item["market"]
    sides = [side for side in SIDES if side in reference]
    assert len(sides) >= 2 and item["betSide"] in sides
    served = {side: float(reference[side]) for side in sides}  # the service's, to 3 places

    # The sharp books' quotes of that line, as the desk's feed delivers them (on the wire).
    record = parse_odds_record(json.loads(indexes.odds.record(event, list(FAIR_POLICY.books))))
    quotes: dict[str, dict[str, float]] = {}
    for book, markets in record.bookmakers.items():
        for market in markets:
            for line in market.lines:
                if (market.name, line.hdp, line.label) == (
                    reference["name"],
                    reference.get("hdp"),
                    reference.get("label"),
                ):
                    quotes[book] = dict(line.prices)
    assert quotes, "the sharp books quote the value bet's line"

    edges, sharp = fair_line(quotes, sides)
    assert sharp in FAIR_POLICY.books
    board = {side: fair_from_sharp(quotes, sides, side, FAIR_POLICY.method) for side in sides}
    engine = IntelEngine()
    key = (event.id, reference["name"], (reference.get("hdp"), reference.get("label")))
    for book, prices in quotes.items():
        engine.observe(1.0, key, book, prices)
    soft = {side: quotes[sharp][side] * 1.05 for side in sides}  # a soft price of every side
    engine.observe(2.0, key, "Soft", soft)
    intel = engine.lines[key]
    assert intel.fair is not None and intel.sides is not None and intel.fair.book == sharp
    assert sorted(intel.sides) == sorted(sides)
    intel_fair = dict(zip(intel.sides, intel.fair.prices(), strict=True))
    # The engine's edge (what makes a stale line by value) is the boards' EV on the same fair.
    edge = engine.edge(intel, "Soft")
    assert edge is not None
    assert edge == pytest.approx(max(
        expected_value(1.0 / intel_fair[side], soft[side]) for side in sides), rel=1e-12)
    state = LineState((event.id, reference["name"], (reference.get("hdp"), reference.get("label"))))
    state.quotes = quotes
    ValueTracker().refresh_fair(state, sport_has_draw(event.sport.slug))
    assert state.fair is not None
    for index, side in enumerate(sides):
        leg = BetLeg(
            reference["name"], reference.get("hdp"), side, "Bet365", 2.0, 10.0,
            label=reference.get("label") or "",
        )  # fmt: skip
        closed = with_closing(leg, record, sport_has_draw(event.sport.slug))
        found = board[side]
        assert found is not None and found[1] == sharp == closed.sharp_book
        fair = edges[index]
        assert fair is not None
        assert found[0] == pytest.approx(fair, rel=1e-12)
        assert state.fair[side] == pytest.approx(fair, rel=1e-12)
        assert closed.close_fair == pytest.approx(fair, rel=1e-12)
        assert intel_fair[side] == pytest.approx(fair, rel=1e-12)
        assert f"{fair:.3f}" == f"{served[side]:.3f}"

"""No price the world shows offers more than WITHDRAW_EDGE over the true price (world/deadlines.py,
`Quoter.overpriced`): not at a move, not when a book that has not seen the move yet requotes
from what it has seen, not when a white label copies its parent's old prices, and not when the
update budget runs short. What the service's lists and the desk's boards state as their bound
(docs/desk.md) rests on this."""

from __future__ import annotations

import pytest

from oddstui.service.world import World
from oddstui.service.world import markets as M
from oddstui.service.world.model import LIVE
from oddstui.service.world.quotes import CHECK_ALT, WITHDRAW_EDGE

START = 1_800_000_000.0
ROUNDING = 0.005  # a price on the wire is rounded to its book's precision


def largest_edges(world: World) -> list[float]:
    """Every shown in-play line's largest edge over the true price (price × true p − 1)."""
    edges = []
    for event in world.live_events():
        if event.status != LIVE or event.id not in world._quoter.truths:
            continue
        defs = world._quoter.defs(event)
        for bookie in event.bookmakers:
            for market in world.book_markets(event, bookie):
                mdef = defs[market.name]
                true = {(h, label): p for h, label, p in
                        world._quoter.lines_for(event, mdef, CHECK_ALT)}
                for line in market.lines:
                    probs = true.get((line.hdp, line.label))
                    assert probs is not None, (bookie, market.name, line.hdp, "a gone line shown")
                    edges.append(max(line.prices[side] * p for side, p in
                                     zip(M.SIDES[mdef.kind], probs, strict=False)) - 1.0)
    return edges


@pytest.mark.parametrize(
    ("updates_per_second", "speed", "step"),
    [(1000.0, 1.0, 0.1), (40.0, 10.0, 1.0)],
    ids=["a busy world", "a budget far short of the world"],
)
def test_no_shown_price_offers_more_than_the_bound_over_the_true_price(
    updates_per_second: float, speed: float, step: float
) -> None:
    world = World(seed=3, start=START, speed=speed, updates_per_second=updates_per_second,
                  real_clock=lambda: 0.0)
    world.warm()
    worst, lines, real_edges = 0.0, 0, 0
    steps = int(40 / step)
    for index in range(steps):
        world.advance(step)
        if index % int(2 / step):
            continue
        edges = largest_edges(world)
        lines += len(edges)
        real_edges += sum(1 for edge in edges if edge > 0.02)
        worst = max([worst, *edges])
    assert lines > 10_000 and real_edges > 0, (lines, real_edges)  # live books, real edges
    assert worst <= WITHDRAW_EDGE + ROUNDING, f"a price stood {worst:.1%} over the true price"

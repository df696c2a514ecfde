"""The incremental arbitrage index agrees with a from-scratch scan of the same world state.

Journal entries drive it between sweeps; quote changes the journal does not announce (quotes
opened lazily, far-off events put away) are caught by its periodic sweep, run here before each
comparison.
"""

from __future__ import annotations

import json
import time

from oddstui.book.arbitrage import market_arbitrage, sport_has_draw
from oddstui.service.derived.indexes import Indexes
from oddstui.service.world import World


def from_scratch(world: World, books: set[str]) -> set[tuple]:
    """Every arbitrage over `books` by the book's own routine, line by line."""
    suspended = getattr(world, "_suspended", {})
    found = set()
    for event in world.quoted_events():
        lines: dict[tuple, dict[str, dict[str, float]]] = {}
        for bookie, markets in event.quotes.items():
            if bookie not in books or (event.id, bookie) in suspended:
                continue
            for market in markets.values():
                for line in market.lines:
                    lines.setdefault((market.name, line.hdp, line.label), {})[bookie] = line.prices
        for (name, hdp, label), quotes in lines.items():
            # The service's rule (derived/sports.py): the desk's table first, then the world's.
            has_draw = sport_has_draw(event.sport.slug) or event.sport.has_draw
            arb = market_arbitrage(name, quotes, has_draw)
            if arb is not None:
                precision = world.bookmakers
                legs = tuple(
                    (leg.side, leg.bookmaker, f"{leg.price:.{precision[leg.bookmaker].precision}f}")
                    for leg in arb.legs
                )
                found.add((event.id, name, hdp, label, legs))
    return found


def served(index_items: bytes) -> set[tuple]:
    return {
        (
            item["eventId"],
            item["market"]["name"],
            item["market"].get("hdp"),
            item["market"].get("label"),
            tuple((leg["side"], leg["bookmaker"], leg["odds"]) for leg in item["legs"]),
        )
        for item in json.loads(index_items)
    }


def test_incremental_index_matches_a_full_scan() -> None:
    world = World(seed=3, speed=20, bookmakers=80, updates_per_second=1500)
    indexes = Indexes.attach(world)
    active = [name for name, book in world.bookmakers.items() if book.active]
    sets = [active[:12], active[5:40], active]
    for books in sets:
        indexes.arbitrage.items(books, 100_000, False)  # the first full build
    checks = 0
    for _ in range(8):  # rounds of world steps, each checked against a full scan
        for _ in range(5):
            world.step()
            time.sleep(0.03)
        indexes.arbitrage.drain(0.002)  # part of the backlog, as the background task does
        indexes.arbitrage.sweep_all()
        for books in sets:
            assert served(indexes.arbitrage.items(books, 100_000, False)) == from_scratch(
                world, set(books)
            )
            checks += 1
    assert checks == 8 * len(sets)

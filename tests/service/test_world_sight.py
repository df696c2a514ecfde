"""A book is priced as of the moves it has seen: a market that moved twice before the book
saw the second move is repriced at the first move's true prices when the first is due, and at
the second's when that one is (docs/books.md, "The world's truth"). Otherwise the second move
is followed early, and the book's measured lag is shorter than its latency says."""

from __future__ import annotations

import pytest

from oddstui.service.world import World
from oddstui.service.world.model import PENDING, Event

START = 1_800_000_000.0


@pytest.fixture(scope="module")
def world() -> World:
    world = World(seed=5, start=START, updates_per_second=1000.0, real_clock=lambda: 0.0)
    world.warm()
    return world


def _home_probability(world: World, event: Event, book: str) -> float:
    """The book's margin-free home probability on its first moneyline line."""
    line = event.quotes[book]["ML"].lines[0]
    inverse = {side: 1.0 / price for side, price in line.prices.items()
               if not side.startswith("lay")}
    return inverse["home"] / sum(inverse.values())


def _true_home(world: World, event: Event) -> float:
    mdef = world._quoter.defs(event)["ML"]
    return world._quoter.lines_for(event, mdef, 0)[0][2][0]


def _two_moves(world: World, size: float) -> tuple[Event, str, list[tuple[int, float]]]:
    """Two moves of a pending moneyline by `size` each, which a soft book sees 5 s and 10 s
    from now: (the event, the book, each move's (truth version, true home probability))."""
    event, book = next(
        (event, name) for event in world.quoted_events()
        if event.status == PENDING and event.id in world._quoter.truths
        for name in event.bookmakers
        if not world.bookmakers[name].sharp and world.bookmakers[name].sister_of is None
        and "ML" in event.quotes.get(name, {}))
    truth = world._quoter.truths[event.id]
    now = world._sim
    steps = []
    for seen_after in (5.0, 10.0):
        truth.walk["ML"] = truth.walk.get("ML", 0.0) + size
        truth.bump(["ML"], [])
        world._quoter.keep(event)
        world._will_see(event.id, book, truth.version, now + seen_after, ("ML",))
        steps.append((truth.version, _true_home(world, event)))
    return event, book, steps


def test_a_book_behind_two_moves_follows_each_when_it_sees_it(world: World) -> None:
    # Far enough apart to tell which the book priced, near enough that the first move's prices
    # stay within the bound against the second's (else the book keeps the market down: below).
    event, book, steps = _two_moves(world, 0.7)
    now = world._sim
    (first, first_home), (second, second_home) = steps
    assert abs(second_home - first_home) > 0.025
    bookmaker = world.bookmakers[book]

    assert not world._requote(event, bookmaker, now + 4.0, 5)  # seen neither yet
    assert world._requote(event, bookmaker, now + 6.0, 5)
    market = event.quotes[book]["ML"]
    assert market.version == first  # still behind the second move
    seen = _home_probability(world, event, book)  # the book's own margin and opinion aside
    assert abs(seen - first_home) < abs(seen - second_home) / 3

    assert not world._requote(event, bookmaker, now + 8.0, 5)  # the second is not seen yet
    assert world._requote(event, bookmaker, now + 11.0, 5)
    assert market.version == second
    seen = _home_probability(world, event, book)
    assert abs(seen - second_home) < abs(seen - first_home) / 3


def test_a_book_does_not_reopen_on_prices_a_move_it_has_not_seen_made_over_the_bound(
    world: World,
) -> None:
    # Two big moves: the first's prices would stand far over the true price after the second
    # (a score it has not seen): the book keeps the market down until it has seen it.
    event, book, steps = _two_moves(world, 1.5)
    now = world._sim
    (_, first_home), (second, second_home) = steps
    assert abs(second_home - first_home) > 0.05
    bookmaker = world.bookmakers[book]
    world._requote(event, bookmaker, now + 6.0, 5)
    assert "ML" not in event.quotes[book]  # it saw the first move only
    assert world._requote(event, bookmaker, now + 11.0, 5)
    assert event.quotes[book]["ML"].version == second
    seen = _home_probability(world, event, book)
    assert abs(seen - second_home) < abs(seen - first_home) / 3

"""Red cards in the built-in world (football only, ours on the wire): drawn from the match's
seed on a generator of their own, shown during regulation play, and carried by the scores."""

from __future__ import annotations

import math
from dataclasses import replace

from oddstui.service.world.engines import make_engine
from oddstui.service.world.engines.base import Engine
from oddstui.service.world.engines.timed import PLAY, TimedEngine
from oddstui.service.world.model import Scores
from oddstui.service.world.sports import SPORT_BY_SLUG

FOOTBALL = SPORT_BY_SLUG["football"]
MATCHES = 1500


def football(seed: int) -> Engine:
    return make_engine(FOOTBALL, seed, Scores(), 0.0, False)


def cards_of(seed: int) -> tuple[int, int]:
    engine = football(seed)
    engine.play_out()
    assert engine.scores.red_cards is not None
    return engine.scores.red_cards


def test_about_one_football_match_in_eight_has_a_red_card() -> None:
    shown = [cards_of(seed) for seed in range(MATCHES)]
    with_one = sum(1 for home, away in shown if home + away)
    expected = 1 - math.exp(-2 * FOOTBALL.red_cards)  # the Red Card market's pre-match chance
    # Four standard deviations of a binomial count either side.
    spread = 4 * math.sqrt(MATCHES * expected * (1 - expected))
    assert abs(with_one - MATCHES * expected) < spread, with_one
    assert sum(h for h, _ in shown) and sum(a for _, a in shown)  # both sides get them


def test_cards_do_not_change_the_rest_of_the_match() -> None:
    """The cards draw from their own generator: goals and periods are those of a world without
    them (the same seed, the cards switched off)."""
    quiet = replace(FOOTBALL, red_cards=0.0)
    for seed in range(60):
        with_cards, without = football(seed), make_engine(quiet, seed, Scores(), 0.0, False)
        with_cards.play_out()
        without.play_out()
        assert (with_cards.scores.home, with_cards.scores.away) == (
            without.scores.home,
            without.scores.away,
        )
        assert with_cards.scores.periods == without.scores.periods
        assert without.scores.red_cards is None


def test_a_card_is_shown_during_play_and_one_big_step_equals_many_small() -> None:
    seed = next(s for s in range(500) if sum(cards_of(s)))
    stepped = football(seed)
    assert isinstance(stepped, TimedEngine)
    assert stepped.scores.red_cards == (0, 0)  # carried from kick-off
    play = [(p.start, p.start + p.real) for p in stepped.phases if p.kind == PLAY]
    seen: list[tuple[float, tuple[int, int]]] = []
    while not stepped.finished:
        before = stepped.scores.red_cards
        changed = stepped.advance(7.0)
        if stepped.scores.red_cards != before:
            assert changed  # a card is a score change: the world sends a score message
            seen.append((stepped.elapsed, stepped.scores.red_cards))
    assert seen and seen[-1][1] == cards_of(seed)
    for at, _ in seen:
        assert any(start <= at < end + 7.0 for start, end in play), at
    assert stepped.scores.red_cards == cards_of(seed)


def test_the_wire_carries_red_cards_in_football_only() -> None:
    engine = football(3)
    engine.play_out()
    wire = engine.scores.to_wire()
    assert set(wire["redCards"]) == {"home", "away"}
    basketball = make_engine(SPORT_BY_SLUG["basketball"], 3, Scores(), 0.0, False)
    basketball.play_out()
    assert "redCards" not in basketball.scores.to_wire()

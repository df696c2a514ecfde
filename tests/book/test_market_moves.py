"""Property tests: the moves a market keeps equal a plain per-price record of every change.

``MarketState`` packs its moves into an array laid out by line and side; the model here keeps
one record per (line, side) in a dictionary, written whenever a price differs from the one the
same line and side held in the previous quote.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui.api.models import Line, MarketQuote
from oddstui.book.state import LineKey, MarketState, PriceMove

SIDES = ("home", "draw", "away")
price = st.sampled_from([1.5, 1.8, 2.0, 2.2])
line = st.builds(
    lambda hdp, label, sides, prices, maximum: Line(
        hdp, label, dict(zip(sides, prices, strict=False)), maximum
    ),
    st.sampled_from([None, -1.5, 0.5, 2.5]),
    st.sampled_from([None, "Kane"]),
    st.permutations(SIDES).flatmap(lambda order: st.integers(1, 3).map(lambda n: order[:n])),
    st.lists(price, min_size=3, max_size=3),
    st.sampled_from([None, 100.0]),
)
quote = st.lists(line, max_size=4, unique_by=lambda found: (found.hdp, found.label)).map(
    lambda lines: MarketQuote("ML", None, tuple(lines))
)


def model_merge(
    model: dict[tuple[LineKey, str], PriceMove], old: MarketQuote, new: MarketQuote, at: float
) -> None:
    before = {(found.hdp, found.label): found.prices for found in old.lines}
    for found in new.lines:
        key = (found.hdp, found.label)
        previous = before.get(key, {})
        for side, value in found.prices.items():
            old_value = previous.get(side)
            if old_value is None:
                model[key, side] = PriceMove(None, 0, at)
            elif old_value != value:
                model[key, side] = PriceMove(old_value, 1 if value > old_value else -1, at)
    for key in before.keys() - {(found.hdp, found.label) for found in new.lines}:
        for side in SIDES:
            model.pop((key, side), None)  # a line that vanished comes back as new


def check_moves(first: MarketQuote, later: list[MarketQuote]) -> None:
    state = MarketState(first, 0.0)
    model: dict[tuple[LineKey, str], PriceMove] = {}
    current = first
    # may be empty: a strategy may draw no later quote (the first is then the whole check)
    for at, new in enumerate(later, start=1):
        changed = state.merge(new, float(at))
        assert changed == (new.lines != current.lines)
        model_merge(model, current, new, float(at))
        current = new
        for found in new.lines:
            key = (found.hdp, found.label)
            for side in SIDES:
                expected = model.get((key, side)) if side in found.prices else None
                assert state.move(key, side) == expected, (key, side)
                since = expected.since if expected is not None else 0.0
                assert state.changed_at(key, side) == since


@settings(max_examples=300, deadline=None)
@given(quote, st.lists(quote, max_size=12))
def test_moves_equal_a_record_of_every_price_change(first: MarketQuote, later) -> None:
    check_moves(first, later)


# Quotes on fixed lines, as the feed mostly sends them: the moves are written in place unless
# a line's sides change (names or order).
usual_sides = st.sampled_from(
    [("home", "away"), ("home", "away"), ("away", "home"), ("home", "draw"), SIDES]
)


def quotes_on(keys: list[LineKey]) -> st.SearchStrategy[MarketQuote]:
    spec = st.tuples(usual_sides, st.lists(price, min_size=3, max_size=3), st.just(None))
    return st.lists(spec, min_size=len(keys), max_size=len(keys)).map(
        lambda specs: MarketQuote(
            "ML",
            None,
            tuple(
                Line(hdp, label, dict(zip(sides, prices, strict=False)), maximum)
                for (hdp, label), (sides, prices, maximum) in zip(keys, specs, strict=True)
            ),
        )
    )


line_keys = st.lists(
    st.tuples(st.sampled_from([None, -1.5, 0.5]), st.sampled_from([None, "Kane"])),
    min_size=1,
    max_size=3,
    unique=True,
)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_moves_on_fixed_lines_equal_a_record_of_every_price_change(data) -> None:
    keys = data.draw(line_keys)
    on_keys = quotes_on(keys)
    first = data.draw(on_keys)
    later = data.draw(st.lists(st.one_of(on_keys, on_keys, on_keys, quote), max_size=12))
    check_moves(first, later)


def test_a_side_that_kept_its_price_keeps_its_earlier_move() -> None:
    def ml(home: float, away: float) -> MarketQuote:
        return MarketQuote("ML", None, (Line(None, None, {"home": home, "away": away}, None),))

    state = MarketState(ml(2.0, 1.8), 0.0)
    state.merge(ml(2.2, 1.7), 5.0)
    state.merge(ml(2.2, 1.6), 9.0)
    assert state.move((None, None), "home") == PriceMove(2.0, 1, 5.0)
    assert state.move((None, None), "away") == PriceMove(1.7, -1, 9.0)

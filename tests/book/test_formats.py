from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oddstui.book.formats import (
    FRACTIONAL_LADDER,
    ODDS_FORMATS,
    american_to_decimal,
    book_places,
    decimal_to_american,
    decimal_to_fractional,
    format_price,
    fractional_to_decimal,
    parse_odds_format,
    price_places,
)
from tests.book.strategies import prices


@pytest.mark.parametrize(
    ("american", "decimal"),
    [(150, 2.5), (-200, 1.5), (100, 2.0), (-100, 2.0), (-110, 1 + 100 / 110), (1000, 11.0)],
)
def test_american_to_decimal(american: int, decimal: float) -> None:
    assert american_to_decimal(american) == pytest.approx(decimal, rel=1e-15)


@pytest.mark.parametrize(
    ("decimal", "american"),
    [(2.5, 150), (1.5, -200), (2.0, 100), (1.91, -110), (2.1, 110), (1.67, -149), (11.0, 1000)],
)
def test_decimal_to_american(decimal: float, american: int) -> None:
    assert decimal_to_american(decimal) == american


@pytest.mark.parametrize("bad", [0, 50, -99, float("nan"), float("inf")])
def test_american_between_minus_and_plus_100_is_rejected(bad: float) -> None:
    with pytest.raises(ValueError, match="American odds"):
        american_to_decimal(bad)


@settings(deadline=None)
@given(st.one_of(st.integers(100, 100_000), st.integers(-100_000, -101)))
def test_american_round_trips_exactly(american: int) -> None:
    assert decimal_to_american(american_to_decimal(american)) == american


def test_minus_100_and_plus_100_are_both_evens() -> None:
    assert decimal_to_american(american_to_decimal(-100)) == 100


@settings(deadline=None)
@given(prices)
def test_decimal_to_american_and_back_is_within_rounding(decimal: float) -> None:
    back = american_to_decimal(decimal_to_american(decimal))
    # Half an American unit is 0.005 in decimal above evens and (d-1)²/200 below it.
    assert abs(back - decimal) <= 0.005 + 1e-12


@settings(deadline=None)
@given(prices)
def test_american_sign_follows_evens(decimal: float) -> None:
    american = decimal_to_american(decimal)
    assert (american > 0) == (decimal >= 2.0)


@pytest.mark.parametrize(
    ("decimal", "fraction"),
    [
        (2.0, (1, 1)),
        (1.91, (10, 11)),
        (1.83, (5, 6)),
        (1.8, (4, 5)),
        (1.73, (8, 11)),
        (1.67, (4, 6)),
        (2.1, (11, 10)),
        (2.2, (6, 5)),
        (2.25, (5, 4)),
        (2.38, (11, 8)),
        (2.5, (6, 4)),
        (2.63, (13, 8)),
        (2.75, (7, 4)),
        (2.88, (15, 8)),
        (3.0, (2, 1)),
        (3.25, (9, 4)),
        (3.5, (5, 2)),
        (3.75, (11, 4)),
        (4.0, (3, 1)),
        (1.44, (4, 9)),
        (4.33, (100, 30)),
        (3.125, (85, 40)),
    ],
)
def test_decimal_snaps_to_the_traditional_ladder(decimal: float, fraction: tuple[int, int]) -> None:
    assert decimal_to_fractional(decimal) == fraction


def test_off_ladder_prices_keep_an_exact_fraction_that_reads_easily() -> None:
    assert decimal_to_fractional(30.0) == (29, 1)
    assert decimal_to_fractional(1.875) == (7, 8)
    assert decimal_to_fractional(1.95) == (19, 20)
    assert decimal_to_fractional(12.5) == (23, 2)


def test_awkward_fractions_give_way_to_the_nearest_ladder_price() -> None:
    assert decimal_to_fractional(3.952) == (3, 1)  # not 62/21
    assert decimal_to_fractional(66.5) == (66, 1)  # not 131/2
    assert decimal_to_fractional(2.62) == (13, 8)  # not 81/50


def test_beyond_the_ladder_is_exact() -> None:
    assert decimal_to_fractional(1501.0) == (1500, 1)
    assert decimal_to_fractional(1.002) == (1, 500)


def test_the_ladder_is_in_price_order() -> None:
    decimals = [fractional_to_decimal(*fraction) for fraction in FRACTIONAL_LADDER]
    assert decimals == sorted(decimals)


@pytest.mark.parametrize("fraction", FRACTIONAL_LADDER)
def test_every_ladder_price_round_trips(fraction: tuple[int, int]) -> None:
    assert decimal_to_fractional(fractional_to_decimal(*fraction)) == fraction


@settings(deadline=None)
@given(prices)
def test_fractional_is_a_ladder_price_or_exact(decimal: float) -> None:
    numerator, denominator = decimal_to_fractional(decimal)
    assert numerator > 0 and denominator > 0
    shown = fractional_to_decimal(numerator, denominator)
    on_ladder = (numerator, denominator) in FRACTIONAL_LADDER
    assert on_ladder or abs(shown - round(decimal, price_places(decimal))) < 1e-9


def test_fractional_with_non_positive_parts_is_rejected() -> None:
    with pytest.raises(ValueError, match="positive"):
        fractional_to_decimal(0, 5)


@pytest.mark.parametrize(
    ("decimal", "fmt", "text"),
    [
        (2.1, "decimal", "2.10"),
        (2.1, "american", "+110"),
        (2.1, "fractional", "11/10"),
        (2.0, "fractional", "EVS"),
        (2.0, "american", "+100"),
        (1.5, "american", "-200"),
        (1.909, "decimal", "1.909"),
        (1.9, "decimal", "1.90"),
        (7.007, "decimal", "7.007"),
        (1.23456, "decimal", "1.235"),
        (4.33, "fractional", "100/30"),
        (None, "decimal", "-"),
        (1.0, "american", "-"),
    ],
)
def test_format_price(decimal: float | None, fmt: str, text: str) -> None:
    assert format_price(decimal, fmt) == text  # type: ignore[arg-type]


def test_a_books_prices_share_its_precision() -> None:
    assert book_places([1.9, 2.228, None]) == 3
    assert book_places([1.9, 2.25]) == 2
    assert book_places([]) == 2
    assert format_price(1.9, "decimal", places=book_places([1.9, 2.228])) == "1.900"


def test_format_price_rejects_an_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown odds format"):
        format_price(2.0, "hongkong")  # type: ignore[arg-type]


def test_parse_odds_format() -> None:
    assert [parse_odds_format(f" {f.upper()} ") for f in ODDS_FORMATS] == list(ODDS_FORMATS)
    with pytest.raises(ValueError, match="decimal, american, fractional"):
        parse_odds_format("malay")


@pytest.mark.parametrize("bad", [1.0, 0.5, -2.0, float("nan")])
def test_conversions_reject_prices_at_or_below_one(bad: float) -> None:
    with pytest.raises(ValueError):
        decimal_to_american(bad)
    with pytest.raises(ValueError):
        decimal_to_fractional(bad)


@pytest.mark.parametrize(
    ("decimal", "shown"),
    [(6.32, "≈11/2"), (3.952, "≈3/1"), (1.91, "10/11"), (4.33, "100/30"), (1.95, "19/20")],
)
def test_a_board_marks_a_fraction_that_is_only_the_nearest_ladder_price(
    decimal: float, shown: str
) -> None:
    """Small lie L4: 6.32 read `11/2` (6.5) on a board whose edge came from 6.32."""
    assert format_price(decimal, "fractional", mark_rounded=True) == shown
    assert format_price(decimal, "fractional") == shown.lstrip("≈")  # elsewhere as before


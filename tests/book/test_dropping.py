from __future__ import annotations

import pytest

from oddstui.book.dropping import (
    drop_percent,
    is_valid_opening,
    price_at,
    stable_ticks,
    window_drop,
)


def test_drop_percent() -> None:
    assert drop_percent(2.0, 1.8) == pytest.approx(10.0)
    assert drop_percent(2.0, 2.5) == pytest.approx(-25.0)


def test_openings_below_1_01_are_invalid() -> None:
    assert not is_valid_opening(1.005)
    assert not is_valid_opening(None)
    assert is_valid_opening(1.01)
    with pytest.raises(ValueError, match="invalid"):
        drop_percent(1.005, 1.002)


def test_moves_under_a_minute_are_ignored() -> None:
    ticks = [(0.0, 2.0), (100.0, 1.5), (130.0, 2.0), (500.0, 1.9)]
    assert stable_ticks(ticks, now=1000.0) == [(0.0, 2.0), (500.0, 1.9)]


def test_the_last_price_counts_only_once_it_has_held() -> None:
    ticks = [(0.0, 2.0), (500.0, 1.9)]
    assert stable_ticks(ticks, now=530.0) == [(0.0, 2.0)]
    assert stable_ticks(ticks, now=600.0) == [(0.0, 2.0), (500.0, 1.9)]


def test_a_spike_when_a_suspended_market_reopens_is_ignored() -> None:
    ticks = [(0.0, 2.0), (100.0, None), (200.0, 1.3), (290.0, 1.95)]
    assert stable_ticks(ticks, now=1000.0) == [(0.0, 2.0), (290.0, 1.95)]


def test_price_at() -> None:
    ticks = [(0.0, 2.0), (100.0, 1.9)]
    assert price_at(ticks, -1.0) is None
    assert price_at(ticks, 50.0) == 2.0
    assert price_at(ticks, 100.0) == 1.9


def test_window_drop() -> None:
    ticks = [(0.0, 2.0), (1000.0, 1.9), (5000.0, 1.6)]
    assert window_drop(ticks, now=6000.0, window_seconds=None) == pytest.approx(20.0)
    assert window_drop(ticks, now=6000.0, window_seconds=3000.0) == pytest.approx(
        (1.9 - 1.6) / 1.9 * 100
    )
    # A window reaching back before the first price has no reference.
    assert window_drop(ticks, now=6000.0, window_seconds=10_000.0) is None
    assert window_drop([], now=0.0, window_seconds=None) is None

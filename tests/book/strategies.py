"""Hypothesis strategies shared by the book tests."""

from __future__ import annotations

from hypothesis import strategies as st

# Decimal prices as bookmakers quote them: 1.01 up to 1000, at three decimals.
prices = st.integers(min_value=1010, max_value=1_000_000).map(lambda x: x / 1000)
# Prices of a plausible market side (1.01 to 50).
market_prices = st.integers(min_value=1010, max_value=50_000).map(lambda x: x / 1000)


def price_lists(min_size: int = 2, max_size: int = 6) -> st.SearchStrategy[list[float]]:
    return st.lists(market_prices, min_size=min_size, max_size=max_size)


@st.composite
def arbitrage_prices(draw: st.DrawFn, min_size: int = 2, max_size: int = 4) -> list[float]:
    """Prices whose implied probabilities sum below 1 (a real arbitrage)."""
    n = draw(st.integers(min_value=min_size, max_value=max_size))
    weights = draw(st.lists(st.floats(0.05, 1.0), min_size=n, max_size=n))
    booksum = draw(st.floats(0.80, 0.995))
    total = sum(weights)
    return [round(total / (w * booksum), 3) for w in weights]

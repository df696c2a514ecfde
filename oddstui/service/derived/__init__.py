"""Indexes derived from the world's prices for the REST routes: arbitrage, value bets,
dropping odds and recently updated odds. Each follows the world through its listener calls."""

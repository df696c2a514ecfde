"""The trading boards (arbitrage, value bets, dropping odds, the stake ticket) and their parts."""

"""Local market state and the betting maths: pure, no I/O, no asyncio, no textual.

- ``formats``: decimal / American / fractional odds; ``ticks``: the exchange tick ladder
- ``probability``: implied probability, booksum, overround, margin, payout
- ``fair``: margin removal (multiplicative, additive, power, Shin); ``fair_policy``: the one
  fair price (the ordered sharp books and the method), read by every consumer
- ``value``: EV, Kelly, closing line value; ``dropping``: drop % and its noise rules
- ``arbitrage``: best prices, exhaustive sides, arbitrage (profit % = (1/S - 1) · 100)
- ``exchange``: lay sides apart from back sides, back prices net of commission
- ``stakes``: equal-return, capped, rounded and all-on-one-outcome stakes
- ``oddsbook``: ``OddsBook``, the client's events and prices; ``views``: comparable snapshots
"""

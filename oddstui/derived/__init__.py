"""The derived lists (GET /arbitrage-bets, /value-bets, /dropping-odds) written once, for every
v3 source that makes them from its own price state: the built-in service's world and a replay.

Each source keeps its prices its own way (the world's incremental indexes, the replay's parsed
recording) and hands this package the same things: a line's quotes by bookmaker, an event's
names and links, a line's price history. The rules (which events are listed, what a value bet
and an arbitrage are, how a drop is measured and paged) and the items' shapes live here only.
"""

"""The simulated world behind `oddstui serve`.

Contract shared by the world (which owns this package), the REST routes and the feed:

`World(seed=1, speed=1.0, bookmakers=265, updates_per_second=50.0, replay_window=600.0,
start=None, background=False)` builds a deterministic world for `seed`; simulated time starts at
`start` (wall clock by default) and runs `speed` times faster than real time. What the world
holds at a time is a function of the seed and that time alone (schedule.py: fixtures by UTC
day, ids from the day, sport and slot), so worlds started at different moments agree on every
fixture, its id and the play of a live match. With `background=True` (the service) it lays out
the hours around `start` at once and the rest of its 45 past and 14 coming days a little per
step (`laid_out` tells when done); otherwise all at construction.

Catalog (read-only after construction, apart from new events being added):
- `sports: dict[str, Sport]` (34, in the seed's order), `leagues: dict[str, League]`,
  `participants: dict[int, Participant]`, `bookmakers: dict[str, Bookmaker]` (by name),
  `events: dict[int, Event]` (every status, historical ones included),
  `default_selection: list[str]` (about 12 well-known active books, the demo account's).
- `now() -> float`: simulated Unix seconds.
- `crest_png(participant_id) -> bytes | None`.
- `odds_record(event, bookmakers) -> dict`: the wire odds record restricted to those books
  (closing prices for settled events).
- `markets_wire(event, bookie) -> list[dict]`: exactly `bookmakers[bookie]` of an odds record.
- price history per (event, bookie, market, line): see `history.py`.

Evolution:
- `step()` advances the world to `now()`: match engines, new and cancelled events, price moves.
  All mutation happens inside `step()`, which never awaits, so a reader on the same event loop
  always sees a consistent state and `journal.seq`.
- At the end of `step()`, each (event, bookie) pair whose markets changed gets exactly one
  journal entry with a fresh seq, then listeners are told: `on_odds(entries)`, then
  `on_score(event)` per score change and `on_status(event)` per status transition.
- `async run(interval=0.05)`: calls `step()` forever.

The World is one object in layers, a file each (state.py, prices.py, lifecycle.py, reads.py,
world.py; each only calls the ones before it); the match engines are the `engines` package.

Also provided:
- `advance(seconds)`: move simulated time on by `seconds` and step (tests; with
  `real_clock=lambda: 0.0` the world is fully deterministic).
- `subscribe(listener)` (alias `add_listener`), `unsubscribe(listener)`; a listener has
  `on_odds(entries)`, `on_score(event)`, `on_status(event)`; its exceptions are logged.
- `live_events()`, `quoted_events()` (pending/live events whose quotes exist: scan these for
  value bets, arbitrage, dropping odds), `market_types(sport=None)`, `engine(event_id)`.
- `deep_link(event, bookie)` (alias `bookie_url`): a URL or "N/A";
  `bookmaker_event_id(event, bookie)` (alias `bookie_fixture_id`).
- `Sport.has_draw`: ML is three-way in that sport.
- `book_markets(event, bookie)` -> the Market objects `markets_wire` serializes. Read quotes
  through it (or `markets_wire`/`odds_record`) rather than `event.quotes`: events more than two
  hours off that nothing has moved keep their quotes put away (`event.quotes == {}`) and rebuild
  them, identically, when asked. `quoted_events()` lists the ones whose quotes are in memory.
- In play only a subset of an event's books quotes (the others show no markets until the end;
  fewer still when `updates_per_second` is small for the `speed`). Soft books widen margins in
  play and follow moves after a latency, so value bets and brief arbitrages appear.
- The update budget: `updates_per_second` a real second, of which in-play follow-ups leave a
  quarter to pre-match work. A late step owes at most a quarter second of it, so a machine that
  cannot make the rate asked for makes fewer updates, in short steps.
- Journal (`journal.py`): `journal.seq`, `journal.replay_since(last_seq)` (compacted, or None
  outside the window), `journal.changed_since(ts)`; `JournalEntry(seq, event_id, bookie, type,
  timestamp)` with aliases `.kind` and `.ts`. `world.changed_since(ts, bookmakers=None)` filters.
- History (`history.py`): `movements(event_id, bookie, market, hdp=None, label=None)` -> every
  tick `(ts, {side: price})` of one line, opening first (None: no such line);
  `price_at(event_id, bookie, market, hdp, label, ts)`; `line_window(...)` -> `WindowPrices`
  (opening, h12, h24, h48, current, last_moved_at) for dropping odds; `open_ts(event_id)`.
- Settled/cancelled events keep no live quotes (`event.quotes` is emptied); their closing prices
  come from `markets_wire`/`odds_record`.
- `warm(budget=inf)`: open the quotes of live events, then of the soonest kick-offs, for up to
  `budget` real seconds; `warming(upcoming)` does the same one event at a time, for a count of
  kick-offs (the service runs it on its loop after the ready line: service/warming.py).
- Prices: no book's line sums under 100 %; exchanges also quote `lay<Side>` one or two ladder
  ticks above the back (pricing.py).
- `freeze_heap()`: GC tuning for the service loop (`run()` calls it).
- Score keys: `ot` holds the cumulative score after overtime (so a match decided in overtime
  has top-level == `ot`); after a shoot-out top-level == `ft` and `ap` holds the tally.
"""

from oddstui.service.world.journal import Journal, JournalEntry
from oddstui.service.world.reads import WindowPrices
from oddstui.service.world.state import WorldListener
from oddstui.service.world.world import World

__all__ = ["Journal", "JournalEntry", "WindowPrices", "World", "WorldListener"]

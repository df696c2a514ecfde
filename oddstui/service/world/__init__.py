"""The simulated world behind `oddstui serve`.

Contract shared by the world (which owns this package), the REST routes and the feed:

`World(seed=1, speed=1.0, bookmakers=265, updates_per_second=50.0, replay_window=600.0,
start=None)` builds a deterministic world for `seed`; simulated time starts at `start` (wall
clock by default) and runs `speed` times faster than real time.

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
"""

from oddstui.service.world.journal import Journal, JournalEntry
from oddstui.service.world.world import WindowPrices, World, WorldListener

__all__ = ["Journal", "JournalEntry", "WindowPrices", "World", "WorldListener"]

"""The Books screen and the Stale lines board over a staged session: the boards' recorded app,
its intel engine fed a fixed series of price changes on the recorded events (sharp moves,
followers with set lags, a sister copying its parent, books still behind)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from oddstui.intel.engine import IntelEngine
from oddstui.tui.app import OddsApp
from tests.intel.synthetic import SHARP, two_way
from tests.tui.boards_recorded import boards_app, settle

SHOTS = {"books": "books", "stale": "stale"}
#: Follower -> (margin, seconds it takes to follow; None: it has not yet).
FOLLOWERS = {
    "Betfair Exchange": (0.02, 1.5), "Bet365": (0.05, 6.0), "Unibet": (0.06, 9.0),
    "William Hill": (0.07, 14.0), "1xBet": (0.06, 4.0), "22Bet": (0.08, 5.5),
    "Bwin": (0.06, 22.0), "DraftKings": (0.05, None),
    # Behind too, with a heavy margin: its price mostly under the fair one (hidden by default).
    "Betway": (0.15, None),
}
#: Markets whose lines are new each minute (a handicap or total: the line's own key).
MARKETS = ("Team Total Home", "Totals", "Spread")
#: 22Bet is a white label of 1xBet: it lands on 1xBet's view (1xBet is fifth in FOLLOWERS).
FOLLOW_VIEW = {"22Bet": 4}


def quotes(market: str, p: float, margin: float) -> dict[str, float]:
    """A two-way line's prices (a total's sides are over and under)."""
    prices = two_way(p, margin)
    if "Total" in market:
        return {"over": prices["home"], "under": prices["away"]}
    return prices


def stage(engine: IntelEngine, event_ids: list[int], now: float) -> None:
    """Forty minutes of a session ending at `now`: a sharp move on a line every minute, the
    last five still being followed."""
    start = now - 40 * 60.0
    ids = event_ids or [1, 2, 3]
    for i in range(40):
        t0 = start + i * 60.0
        market = MARKETS[i % len(MARKETS)]
        # A new line each time (the same event and market come back every twelve minutes).
        hdp = {"Spread": -0.5 - i // 12, "Totals": 140.5 + i}.get(market, 70.5 + i)
        key = (ids[i % len(ids)], market, (hdp, None))
        p = 0.40 + 0.01 * (i % 7)
        # The last move is a big one (a goal, say): DraftKings left far behind it, suspect.
        after = p + (0.05 if i % 2 else -0.05) * (3 if i == 39 else 1)
        for name in SHARP:
            engine.observe(t0, key, name, quotes(market, p, 0.02))
        for name, (margin, _) in FOLLOWERS.items():
            engine.observe(t0, key, name, quotes(market, p, margin))
        for name in SHARP:  # the sharp move
            engine.observe(t0 + 5.0, key, name, quotes(market, after, 0.02))
        follows = sorted((lag + (i % 3), n, name, margin)
                         for n, (name, (margin, lag)) in enumerate(FOLLOWERS.items())
                         if lag is not None)
        for lag, n, name, margin in follows:  # in time order, as the engine takes them
            if t0 + 5.0 + lag > now - 2.0:
                continue
            # Each book lands on its own view of the new price; 22Bet copies 1xBet's.
            view = after * (1.0 + 0.01 * (FOLLOW_VIEW.get(name, n) - 3))
            engine.observe(t0 + 5.0 + lag, key, name, quotes(market, view, margin))
    engine.advance(now)
    engine.now = now


async def intel_screenshot(name: str, size: tuple[int, int], path: Path) -> None:
    """One shot as SVG (screenshots/make.py calls it)."""
    with tempfile.TemporaryDirectory() as folder:
        app = boards_app(Path(folder), SHOTS[name])
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            staged(app)
            await settle(pilot)
            path.write_text(app.export_screenshot(title=f"oddstui · {name}"))


def staged(app: OddsApp) -> None:
    """Stage the session on the app's engine and redraw the screen shown."""
    hub = app.hub
    stage(hub.intel.engine, sorted(hub.board.events)[:12], hub.now())
    app.screen.redraw()  # type: ignore[attr-defined]

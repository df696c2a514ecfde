"""Every arbitrage a recording held: when it appeared, when it went, its best profit and legs.

An arbitrage is one set of legs (side and bookmaker per side) on one event, market and line:
when the best books change, the old set ends and a new one begins. Only lines a record touched
are looked at again (`book.arbitrage`, the desk's own routine).
"""

from __future__ import annotations

from oddstui.backtest.findings import ArbitrageSeen, LegsKey
from oddstui.backtest.line_state import LineState
from oddstui.book.arbitrage import Arbitrage
from oddstui.book.suspect import suspicion


def legs_key(arb: Arbitrage) -> LegsKey:
    return tuple((leg.side, leg.bookmaker) for leg in arb.legs)


class ArbitrageTracker:
    def __init__(
        self, suspect_profit: float | None = None, changed_at: dict[int, float] | None = None
    ) -> None:
        self.suspect_profit = suspect_profit
        self.changed_at = {} if changed_at is None else changed_at
        """event -> when its score or status last moved (the engine keeps it)."""
        self.seen: list[ArbitrageSeen] = []
        self._open: set[LineState] = set()
        """The lines an arbitrage is open on (each holds it in `arbitrage`)."""

    def observe(self, state: LineState, arb: Arbitrage | None, now: float) -> None:
        """The line's arbitrage now (None: none), as `book.arbitrage` finds it."""
        current = state.arbitrage
        if arb is None:
            if current is not None:
                self._close(state, current, now)
            return
        profit = arb.profit_pct
        if current is not None and current.legs_key != legs_key(arb):
            self._close(state, current, now)
            current = None
        if current is None:
            event_id, market, line = state.key
            current = ArbitrageSeen(event_id, market, line, _legs(arb, state), now, now, profit)
            current.suspect = self._suspect(state, arb)
            state.arbitrage = current
            self._open.add(state)
            self.seen.append(current)
        elif profit > current.best_profit:
            current.best_profit = profit
            current.legs = _legs(arb, state)
            current.suspect = self._suspect(state, arb)

    def end_event(self, event_id: int, now: float) -> None:
        """The event ended (settled or cancelled): its arbitrages go now."""
        for state in [state for state in self._open if state.key[0] == event_id]:
            if state.arbitrage is not None:
                self._close(state, state.arbitrage, now)

    def _suspect(self, state: LineState, arb: Arbitrage) -> str:
        quoted = [state.quoted.get(leg.bookmaker) for leg in arb.legs]
        changed = self.changed_at.get(state.key[0])
        return suspicion(arb.profit_pct, quoted, changed, self.suspect_profit)

    def finish(self, end: float) -> None:
        for state in self._open:
            if state.arbitrage is not None:
                state.arbitrage.last_seen = end
                state.arbitrage = None
        self._open.clear()

    def _close(self, state: LineState, arb: ArbitrageSeen, now: float) -> None:
        arb.last_seen = now
        arb.open_at_end = False
        state.arbitrage = None
        self._open.discard(state)


def _legs(arb: Arbitrage, state: LineState) -> tuple[tuple[str, float, str], ...]:
    """Each leg at its bookmaker's quoted price (an arbitrage counts an exchange's net)."""
    quotes = state.quotes
    return tuple(
        (leg.side, quotes.get(leg.bookmaker, {}).get(leg.side, leg.price), leg.bookmaker)
        for leg in arb.legs
    )

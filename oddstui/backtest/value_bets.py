"""Value bets over a recording, each with its closing-line value (MATHS.md).

A price is a value bet when its EV against the fair price of the same market and line, by the
desk's one fair-price policy (`book.fair_policy`: the first sharp book quoting every side, its
margin removed, as the service's value bets), is at least `min_ev` percent (a fair line is
never invented from half a market). A bet is taken at the first price that is value; it stays
one bet until it stops being value. Its closing price is the sharp book's fair price at
kick-off for a bet taken before it, else the sharp book's last fair price in the recording.
"""

from __future__ import annotations

from collections.abc import Mapping

from oddstui.backtest.findings import ValueBetSeen
from oddstui.backtest.line_state import LineState, MarketLine
from oddstui.book.fair_policy import FAIR_POLICY, FairPolicy
from oddstui.book.suspect import suspicion
from oddstui.book.value import MIN_VALUE_EV, ev_percent
from oddstui.derived.value import line_fair_prices

DEFAULT_SHARPS = FAIR_POLICY.books
DEFAULT_MIN_EV = MIN_VALUE_EV  # the service's own floor
_UNKNOWN = object()
_FAIRS_KEPT = 50_000
"""Fair prices remembered at most (then forgotten all at once: memory stays bounded)."""


class ValueTracker:
    def __init__(
        self,
        sharps: tuple[str, ...] = DEFAULT_SHARPS,
        min_ev: float = DEFAULT_MIN_EV,
        suspect_profit: float | None = None,
        changed_at: dict[int, float] | None = None,
    ) -> None:
        self.suspect_profit = suspect_profit
        self.changed_at = {} if changed_at is None else changed_at
        """event -> when its score or status last moved (the engine keeps it)."""
        self.policy = FairPolicy(sharps, FAIR_POLICY.method)
        self.sharps = frozenset(sharps)
        self.min_ev = min_ev
        self.bets: list[ValueBetSeen] = []
        self._priced: dict[MarketLine, LineState] = {}
        """The lines the sharp book has had a fair price on."""
        # A cheap first test of EV >= min_ev (d/fair - 1), a little wide of the exact one.
        self._floor = (1.0 + min_ev / 100.0) * (1.0 - 1e-9)
        self._kickoff_fair: dict[MarketLine, dict[str, float]] = {}
        self._fairs: dict[tuple[object, ...], dict[str, float] | None] = {}
        """(market, has a draw, sharp book, its prices) -> the fair prices they make."""

    def refresh_fair(self, state: LineState, has_draw: bool) -> None:
        """The sharp book's prices on the line moved (or were read afresh)."""
        fair = self._fair(state.key[1], state.quotes, has_draw)
        state.fair = fair
        if fair is not None:
            if state.last_fair is None:
                self._priced[state.key] = state
            state.last_fair = fair

    def check_line(self, state: LineState, in_play: bool, now: float) -> None:
        """Every bookmaker's prices on the line against its fair price. The line's best prices
        (`best_index`) must be up to date."""
        held = state.bets or {}
        state.bets = None
        fair = state.fair
        if fair is None:
            return
        floor = self._floor
        best = state.best  # every bookmaker's best price of each side, the sharp book's too
        for side, fair_price in fair.items():
            held_best = best.get(side)
            if held_best is not None and held_best[0] >= fair_price * floor:
                break
        else:
            return  # no price of any bookmaker passes value's first test
        found: dict[tuple[str, str], ValueBetSeen] = {}
        for bookmaker, prices in state.quotes.items():
            if bookmaker not in self.sharps and _may_be_value(prices, fair, floor):
                self._check(state, bookmaker, prices, fair, held, found, in_play, now)
        if found:
            state.bets = found

    def check_bookmaker(
        self,
        state: LineState,
        bookmaker: str,
        prices: Mapping[str, float] | None,
        in_play: bool,
        now: float,
    ) -> None:
        """Only `bookmaker`'s prices on the line changed, to `prices`."""
        fair = state.fair
        held = state.bets
        if fair is None or bookmaker in self.sharps or (not prices and not held):
            return
        if prices and not held and not _may_be_value(prices, fair, self._floor):
            return  # the usual case: no bet open on the line, and none made
        if held is None:
            held = {}
        found: dict[tuple[str, str], ValueBetSeen] = {}
        self._check(state, bookmaker, prices or {}, fair, held, found, in_play, now)
        if held:
            for side in fair:
                held.pop((bookmaker, side), None)
            held.update(found)
            state.bets = held or None
        else:
            state.bets = found or None

    def _check(
        self,
        state: LineState,
        bookmaker: str,
        prices: Mapping[str, float],
        fair: dict[str, float],
        held: dict[tuple[str, str], ValueBetSeen],
        found: dict[tuple[str, str], ValueBetSeen],
        in_play: bool,
        now: float,
    ) -> None:
        floor = self._floor
        for side, fair_price in fair.items():
            price = prices.get(side)
            if price is None or price < fair_price * floor:
                continue
            ev = ev_percent(1.0 / fair_price, price)
            if ev < self.min_ev:
                continue
            bet = held.get((bookmaker, side))
            if bet is None:
                event_id, market, line = state.key
                quoted = state.quoted
                bet = ValueBetSeen(
                    event_id, market, line, bookmaker, side, now, price, fair_price, ev, in_play
                )
                bet.suspect = suspicion(
                    ev, [quoted.get(bookmaker)], self.changed_at.get(event_id), self.suspect_profit
                )
                self.bets.append(bet)
            found[(bookmaker, side)] = bet

    def end_event(self, event_id: int) -> None:
        """The event ended (settled or cancelled): its value bets are no longer open."""
        for key, state in self._priced.items():
            if key[0] == event_id:
                state.bets = None

    def kick_off(self, event_id: int) -> None:
        """The event went live: its lines' fair prices now are their closing prices."""
        for key, state in self._priced.items():
            last = state.last_fair
            if key[0] == event_id and last is not None and key not in self._kickoff_fair:
                self._kickoff_fair[key] = last

    def finish(self) -> None:
        for bet in self.bets:
            key = (bet.event_id, bet.market, bet.line)
            kickoff = None if bet.in_play else self._kickoff_fair.get(key)
            if kickoff is not None and bet.side in kickoff:
                bet.closing_fair, bet.closed_at = kickoff[bet.side], "kick-off"
                continue
            state = self._priced.get(key)
            last = None if state is None else state.last_fair
            if last is not None and bet.side in last:
                bet.closing_fair, bet.closed_at = last[bet.side], "last"

    def _fair(
        self, market: str, quotes: Mapping[str, Mapping[str, float]], has_draw: bool
    ) -> dict[str, float] | None:
        """The line's fair prices by the policy (`derived.value.line_fair_prices`). Read only:
        the same prices give the same dictionary."""
        # A sharp book's prices come back again and again (a sharp move is often undone, and
        # another sharp book's change leaves the first one's fair price as it was), so each
        # sharp book's fair line is remembered by its prices: the rule asked of that book
        # alone, in the policy's order, gives what it gives of them all.
        for book in self.policy.books:
            prices = quotes.get(book)
            if not prices:
                continue
            key = (market, has_draw, book, tuple(prices.items()))
            fair = self._fairs.get(key, _UNKNOWN)
            if fair is _UNKNOWN:
                if len(self._fairs) >= _FAIRS_KEPT:
                    self._fairs.clear()
                found = line_fair_prices(market, has_draw, {book: prices}, self.policy)
                fair = self._fairs[key] = None if found is None else found[1]
            if fair is not None:
                return fair  # type: ignore[return-value]
        return None


def _may_be_value(prices: Mapping[str, float], fair: dict[str, float], floor: float) -> bool:
    """`ValueTracker._check`'s first test, on each side: most prices fail it."""
    for side, fair_price in fair.items():
        price = prices.get(side)
        if price is not None and price >= fair_price * floor:
            return True
    return False

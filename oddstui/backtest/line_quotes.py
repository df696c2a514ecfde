"""Every bookmaker's prices on each line, held ready: the backtest's odds book.

The desk's `OddsBook` keeps prices by bookmaker and market, as a desk reads them: a market at a
time. A backtest reads a line across bookmakers after each change (best prices, value, alert
rules), which `OddsBook.quotes` answers by visiting every bookmaker of the event. Here each
line's quotes are kept in its `LineState` as the messages move them: bookmaker -> prices, the
very mapping `OddsBook.quotes` returns. Odds messages apply with the book's own rules (merge by
market name, `complete_markets`, `deleted` and `no_markets`); a test applies the same messages
to an `OddsBook` and checks the two agree after every one.

Each bookmaker's market is kept with the JSON text it came in (`apply_texts`): a bookmaker
sends all its markets in every message and changes about half of them, and a market whose text
is the one held is not decoded or compared again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from oddstui.api.models import Line, MarketQuote
from oddstui.api.odds_decoder import decode_market
from oddstui.backtest.line_state import LineState, MarketLine, Prices
from oddstui.book.state import LineKey

Change = tuple[LineState, Prices | None, Prices | None]
"""One bookmaker's prices on a line, before and after (None: it had or has no such line)."""


class _Held:
    """One bookmaker's market as last applied."""

    __slots__ = ("text", "lines", "states")

    def __init__(
        self, text: bytes | None, lines: tuple[Line, ...], states: tuple[LineState, ...] | None
    ) -> None:
        self.text = text
        self.lines = lines
        self.states = states
        """Each line's state, in the lines' order; None when two lines share a key (the
        later one is the quote, as in `OddsBook`): those are matched by key."""


class _Bookmaker:
    """One bookmaker's markets on one event."""

    __slots__ = ("markets", "names", "gone")

    def __init__(self) -> None:
        self.markets: dict[str, _Held] = {}
        self.names: dict[bytes, str] = {}
        """The text each market came in -> its name, for the markets held with their text."""
        self.gone: dict[str, _Held] = {}
        """Markets removed (`no_markets`, or left out of a complete message), as they were: a
        bookmaker that pulls its markets sends the same lines again, which then find their
        states by position instead of by key."""


class LineQuotes:
    def __init__(self) -> None:
        self.complete_markets = False
        """Each odds message lists all its bookmaker's markets: a market left out is gone."""
        self._states: dict[MarketLine, LineState] = {}
        self._held: dict[tuple[int, str], _Bookmaker] = {}
        self._bookmakers: dict[int, set[str]] = {}
        """event -> the bookmakers it has held markets for."""

    def state(self, key: MarketLine) -> LineState:
        """The line's state, made when first asked for."""
        state = self._states.get(key)
        if state is None:
            state = self._states[key] = LineState(key)
        return state

    def quotes(self, key: MarketLine) -> Mapping[str, Prices]:
        """bookmaker -> prices on one line; read only (it is the store's own)."""
        state = self._states.get(key)
        return {} if state is None else state.quotes

    def lines_of(self, event_ids: Iterable[int]) -> set[MarketLine]:
        """Every line any bookmaker quotes on these events."""
        found: set[MarketLine] = set()
        for event_id in event_ids:
            for bookmaker in self._bookmakers.get(event_id, ()):
                for name, held in self._held[(event_id, bookmaker)].markets.items():
                    found.update((event_id, name, (line.hdp, line.label)) for line in held.lines)
        return found

    def apply_odds(
        self, event_id: int, bookmaker: str, kind: str, markets: Iterable[MarketQuote]
    ) -> list[Change]:
        """Apply one odds message, decoded; what it changed of the bookmaker's prices."""
        return self._apply(event_id, bookmaker, kind, [(None, quote) for quote in markets])

    def apply_texts(
        self, event_id: int, bookmaker: str, kind: str, texts: list[bytes]
    ) -> list[Change]:
        """`apply_odds` with each market as its JSON text (`decode_odds_texts`): only the texts
        not held are decoded, all of them before anything is applied, so that a market
        `decode_market` refuses (NotFast, DecodeError) leaves the store as it was."""
        where = self._held.get((event_id, bookmaker))
        names = {} if where is None else where.names
        markets: list[tuple[bytes | None, MarketQuote | str]] = []
        for text in texts:
            name = names.get(text)
            markets.append((text, decode_market(text) if name is None else name))
        return self._apply(event_id, bookmaker, kind, markets)

    def _apply(
        self,
        event_id: int,
        bookmaker: str,
        kind: str,
        markets: list[tuple[bytes | None, MarketQuote | str]],
    ) -> list[Change]:
        """`markets`: (its text or None, its quote, or its name when its text is held)."""
        changes: list[Change] = []
        where = (event_id, bookmaker)
        held = self._held.get(where)
        if kind == "deleted" or kind == "no_markets":
            if held:
                for name in list(held.markets):
                    self._remove(event_id, bookmaker, held, name, changes)
            return changes
        if held is None:
            held = self._held[where] = _Bookmaker()
            self._bookmakers.setdefault(event_id, set()).add(bookmaker)
        for text, quote in markets:
            if isinstance(quote, str):
                if held.markets[quote].text == text:
                    continue  # its text is the one held: nothing changed
                # The message listed the market twice and changed it in between; the text was
                # decoded once already (a name comes with a text).
                quote = decode_market(text)  # type: ignore[arg-type]
            name = quote.name
            before = held.markets.get(name)
            if before is not None and before.text is not None:
                del held.names[before.text]
            after = None
            if before is None and held.gone:
                back = held.gone.pop(name, None)
                if back is not None:
                    after = _back(back, bookmaker, quote.lines, changes)
            if after is None:
                after = self._diff(event_id, name, bookmaker, before, quote.lines, changes)
            after.text = text
            held.markets[name] = after
            if text is not None:
                held.names[text] = name
        if self.complete_markets and len(held.markets) > len(markets):
            listed = {quote if isinstance(quote, str) else quote.name for _, quote in markets}
            for name in [name for name in held.markets if name not in listed]:
                self._remove(event_id, bookmaker, held, name, changes)
        return changes

    def replace_event(
        self, event_id: int, bookmakers: Mapping[str, Iterable[MarketQuote]]
    ) -> set[MarketLine]:
        """The event's prices are now exactly these (a snapshot); the lines that were or are."""
        before = self.lines_of((event_id,))
        for bookmaker in self._bookmakers.pop(event_id, ()):
            del self._held[(event_id, bookmaker)]
        for key in before:
            self.state(key).quotes.clear()
        for bookmaker, quotes in bookmakers.items():
            held = self._held[(event_id, bookmaker)] = _Bookmaker()
            self._bookmakers.setdefault(event_id, set()).add(bookmaker)
            for quote in quotes:
                before_quote = held.markets.get(quote.name)
                held.markets[quote.name] = self._diff(
                    event_id, quote.name, bookmaker, before_quote, quote.lines, []
                )
        return before | self.lines_of((event_id,))

    def _remove(
        self, event_id: int, bookmaker: str, held: _Bookmaker, name: str, changes: list[Change]
    ) -> None:
        gone = held.markets.pop(name)
        if gone.text is not None:
            del held.names[gone.text]
        self._diff(event_id, name, bookmaker, gone, (), changes)
        if gone.states is not None and gone.lines:
            held.gone[name] = gone

    def _diff(
        self,
        event_id: int,
        name: str,
        bookmaker: str,
        before: _Held | None,
        lines: tuple[Line, ...],
        changes: list[Change],
    ) -> _Held:
        """The market's lines are now `lines`: each line whose prices moved gets them, and goes
        into `changes`. Returns the market as held now."""
        old_lines = () if before is None else before.lines
        states = None if before is None else before.states
        if states is not None and len(old_lines) == len(lines):
            # The usual case: the same lines in the same order, some prices moved.
            moved = []
            for state, was, line in zip(states, old_lines, lines, strict=True):
                if was.hdp != line.hdp or was.label != line.label:
                    break
                if was.prices != line.prices:
                    moved.append((state, was.prices, line.prices))
            else:
                for change in moved:
                    state, _, prices = change
                    if prices:  # `_quote`, inline: this runs for nearly every change
                        state.quotes[bookmaker] = prices
                    elif bookmaker in state.quotes:
                        del state.quotes[bookmaker]
                    changes.append(change)
                return _Held(None, lines, states)
        # Lines came, went or moved: matched by key, each keeping its state.
        held_states = {} if states is None else {state.key[2]: state for state in states}
        was_by_key: dict[LineKey, Prices | None]
        was_by_key = {(line.hdp, line.label): line.prices for line in old_lines}
        now_by_key = {(line.hdp, line.label): line.prices for line in lines}
        state_of = self.state
        now_states = []
        for key, new in now_by_key.items():
            state = held_states.get(key) or state_of((event_id, name, key))
            now_states.append(state)
            old = was_by_key.pop(key, None)
            if old is None or old != new:
                _quote(state, bookmaker, new)
                changes.append((state, old, new))
        for key, gone in was_by_key.items():
            state = held_states.get(key) or state_of((event_id, name, key))
            _quote(state, bookmaker, None)
            changes.append((state, gone, None))
        unique = len(now_by_key) == len(lines)
        return _Held(None, lines, tuple(now_states) if unique else None)


def _back(back: _Held, bookmaker: str, lines: tuple[Line, ...],
          changes: list[Change]) -> _Held | None:
    """A removed market (`back`) sent again: when its lines are the same ones in the same order,
    each is quoted afresh on its old state, as `_diff` from nothing would; None otherwise."""
    states = back.states
    if states is None or len(back.lines) != len(lines):
        return None
    for was, line in zip(back.lines, lines, strict=True):
        if was.hdp != line.hdp or was.label != line.label:
            return None
    for state, line in zip(states, lines, strict=True):
        _quote(state, bookmaker, line.prices)
        changes.append((state, None, line.prices))
    return _Held(None, lines, states)


def _quote(state: LineState, bookmaker: str, prices: Prices | None) -> None:
    if prices:
        state.quotes[bookmaker] = prices
    elif bookmaker in state.quotes:  # a line with no prices is no quote (as `OddsBook.quotes`)
        del state.quotes[bookmaker]

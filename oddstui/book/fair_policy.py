"""The fair price policy: which books are sharp, in which order, and how their margin is removed.

Written once here and read by every consumer (the service's and the replay's value bets, the
Event screen's edges, the Value board, the backtest and the bet log's closing-line value), so
one price has one edge everywhere. Change `SHARP_BOOKS` or `FAIR_METHOD` and all of them move.

The fair line of a market's line is the first sharp book, in order, that quotes every side it
needs above 1, with its margin removed by `FAIR_METHOD` (`book.fair`); no sharp book quoting
every side, no fair line (never one made from half a market).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from oddstui.book.fair import FairMethod, fair_probabilities

#: The sharp books, first preferred: their prices follow the true price with a small margin
#: (the built-in world flags these same books sharp).
SHARP_BOOKS: tuple[str, ...] = ("Pinnacle", "SingBet")
#: How a sharp book's margin is removed: Shin's method, which moves long shots most (MATHS.md).
FAIR_METHOD: FairMethod = "shin"

Quotes = Mapping[str, Mapping[str, float]]
"""bookmaker -> side -> price, for one market and line."""


@dataclass(frozen=True, slots=True)
class FairLine:
    """One line's fair probabilities, per side in the order asked, and the sharp book used."""

    book: str
    probabilities: tuple[float, ...]

    def prices(self) -> tuple[float, ...]:
        return tuple(1.0 / p for p in self.probabilities)


@dataclass(frozen=True, slots=True)
class FairPolicy:
    books: tuple[str, ...] = SHARP_BOOKS
    method: FairMethod = FAIR_METHOD

    def sharp_prices(
        self, quotes: Quotes, sides: Sequence[str], skip: Collection[str] = ()
    ) -> tuple[str, list[float]] | None:
        """(the first sharp book quoting every side above 1, its prices in the order of
        `sides`), leaving out the books in `skip`; None when none does."""
        if len(sides) < 2:
            return None
        for book in self.books:
            prices = quotes.get(book)
            if prices is None or book in skip:
                continue
            row = [prices.get(side, 0.0) for side in sides]  # 0: not quoted
            if min(row) > 1.0:  # (not all(): the intelligence engine asks at every sharp change)
                return book, [float(price) for price in row]
        return None

    def fair_line(
        self, quotes: Quotes, sides: Sequence[str], skip: Collection[str] = ()
    ) -> FairLine | None:
        """The fair line of `sides` (every side the market needs, back prices) by this policy."""
        found = self.sharp_prices(quotes, sides, skip)
        if found is None:
            return None
        probabilities = self.margin_removed(found[1])
        return None if probabilities is None else FairLine(found[0], probabilities)

    def margin_removed(self, prices: Sequence[float]) -> tuple[float, ...] | None:
        """One book's prices of every side, its margin removed by this policy's method, as
        probabilities; None when they make none."""
        try:
            probabilities = fair_probabilities(prices, self.method)
        except ValueError:
            return None
        return tuple(probabilities) if min(probabilities) > 0.0 else None

    def holds_after(self, line: FairLine | None, bookmaker: str) -> bool:
        """True when a change of `bookmaker`'s quotes leaves `line` (made by this policy from
        the quotes before it) as it is: a book after the one `line` was made from, in order,
        or no sharp book at all. For a caller that keeps a line's fair line as quotes change."""
        if bookmaker not in self.books:
            return True
        return line is not None and self.books.index(bookmaker) > self.books.index(line.book)

    def is_sharp(self, bookmaker: str) -> bool:
        return bookmaker in self.books


#: The policy every consumer uses unless a trader's command names other books (`backtest
#: --sharp`) or the Value board is told another method.
FAIR_POLICY = FairPolicy()

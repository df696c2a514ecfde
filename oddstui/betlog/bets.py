"""A logged bet and its legs, as the store keeps them and the desk shows them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from oddstui.book.formats import exact_price
from oddstui.book.settlement import RESULT_WORDS, VOID, closing_line_value, leg_profit

OPEN, SETTLED = "open", "settled"


@dataclass(frozen=True, slots=True)
class BetLeg:
    """One leg: what was backed, where, at what price and stake, and how it ended."""

    market: str
    hdp: float | None
    side: str
    bookmaker: str
    price: float
    stake: float
    label: str = ""
    commission: float = 0.0
    result: float | None = None
    """`book.settlement` result (1 won … -1 lost), None while open."""
    settled_by: str = ""
    """"score" (from the final score) or "hand" (the trader), "" while open."""
    close_price: float | None = None
    """The sharp book's closing price of this side, when known."""
    close_fair: float | None = None
    """That closing price with the sharp book's margin removed, when every side was quoted."""
    sharp_book: str = ""

    @property
    def profit(self) -> float | None:
        if self.result is None:
            return None
        return leg_profit(self.stake, self.price, self.result, self.commission)

    @property
    def clv(self) -> float | None:
        """Closing-line value as a fraction (0.05: 5 % better than the fair closing price)."""
        if self.close_fair is None:
            return None
        return closing_line_value(self.price, self.close_fair)

    @property
    def result_word(self) -> str:
        return "open" if self.result is None else RESULT_WORDS.get(self.result, f"{self.result:g}")

    @property
    def line_text(self) -> str:
        parts = [self.market]
        if self.label:
            parts.append(self.label)
        if self.hdp is not None:
            shown = f"{self.hdp:+g}" if "spread" in self.market.casefold() else f"{self.hdp:g}"
            parts.append(shown)
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Bet:
    """A ticket accepted: one event, its legs, when and from which board."""

    event_id: int
    placed_at: float
    board: str
    event_name: str
    legs: tuple[BetLeg, ...]
    sport: str = ""
    league: str = ""
    id: int = 0
    """The store's id (0 until stored)."""
    settled_at: float | None = None
    final_score: str = ""

    @property
    def status(self) -> str:
        return SETTLED if self.legs and all(leg.result is not None for leg in self.legs) else OPEN

    @property
    def stake(self) -> float:
        return sum(leg.stake for leg in self.legs)

    @property
    def profit(self) -> float | None:
        """Profit and loss of the whole bet once every leg is settled."""
        profits = [leg.profit for leg in self.legs]
        if not profits or any(value is None for value in profits):
            return None
        return sum(value for value in profits if value is not None)

    def clv_text(self, index: int) -> str:
        """Leg `index`'s closing-line value (`+1.8%`), else why it has none, in at most 8
        characters: `not yet` (the bet is open: the close is read when its match ends), `void`,
        `by hand` (settled by hand before the match ended: no close was read), `partial` (the
        sharp book did not quote every side, so there is no fair price), `no quote` (no sharp
        book quoted the line at the close)."""
        leg = self.legs[index]
        if leg.clv is not None:
            return f"{leg.clv * 100:+.1f}%"
        if self.status == OPEN:
            return "not yet"
        if leg.result == VOID:
            return "void"
        if leg.close_price is not None:
            return "partial"
        if all(each.settled_by == "hand" for each in self.legs):
            return "by hand"
        return "no quote"

    def with_leg(self, index: int, leg: BetLeg) -> Bet:
        legs = list(self.legs)
        legs[index] = leg
        return replace(self, legs=tuple(legs))


def bet_records(bets: list[Bet]) -> list[dict[str, Any]]:
    """One record per leg, numbers as numbers: for `oddstui bets --json` and the exports."""
    records = []
    for bet in bets:
        for number, leg in enumerate(bet.legs, 1):
            records.append(
                {
                    "betId": bet.id,
                    "leg": number,
                    "placedAt": bet.placed_at,
                    "board": bet.board,
                    "eventId": bet.event_id,
                    "sport": bet.sport,
                    "league": bet.league,
                    "event": bet.event_name,
                    "market": leg.market,
                    "line": leg.hdp,
                    "label": leg.label,
                    "side": leg.side,
                    "bookmaker": leg.bookmaker,
                    "price": exact_price(leg.price),
                    "commission": leg.commission,
                    "stake": leg.stake,
                    "status": bet.status,
                    "result": leg.result_word,
                    "settledBy": leg.settled_by,
                    "settledAt": bet.settled_at,
                    "finalScore": bet.final_score,
                    "profit": leg.profit,
                    "sharpBook": leg.sharp_book,
                    "closePrice": None if leg.close_price is None else exact_price(leg.close_price),
                    "closeFair": leg.close_fair,
                    "clv": leg.clv,
                }
            )
    return records

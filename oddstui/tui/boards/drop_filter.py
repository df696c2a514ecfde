"""What the Dropping board shows of a page beyond what /dropping-odds filters: live or pre-match
matches, and lines the trader's bookmakers quote. No textual.

/dropping-odds has neither filter (its items measure one reference book and carry no status),
so both apply to the page the service sent, against what the desk knows: the event's status,
and the feed's book for which bookmakers quote the market.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from oddstui.tui.boards.filters import parse_names

if TYPE_CHECKING:
    from oddstui.book.oddsbook import OddsBook

#: What the status filter takes, and the words that mean each.
STATUS_WORDS = {
    "": "all",
    "all": "all",
    "live": "live",
    "in-play": "live",
    "pre": "pre",
    "pre-match": "pre",
    "prematch": "pre",
}


@dataclass(frozen=True, slots=True)
class DropFilter:
    """The Dropping board's own filters."""

    status: str = "all"
    """"all", "live" (the match has started) or "pre" (it has not)."""
    books: frozenset[str] = frozenset()
    """Casefolded bookmaker names: one of them must quote the market; empty means any."""

    def with_field(self, name: str, text: str) -> DropFilter:
        """This filter with one field parsed from `text` (raises `ValueError` when refused)."""
        if name == "status":
            status = STATUS_WORDS.get(text.strip().casefold())
            if status is None:
                raise ValueError("live/pre must be live, pre (pre-match) or all")
            return replace(self, status=status)
        if name == "books":
            return replace(self, books=parse_names(text, "bookmakers"))
        raise KeyError(name)

    @property
    def active(self) -> bool:
        return self.status != "all" or bool(self.books)

    def accepts(self, live: bool, quoted_by: frozenset[str]) -> bool:
        """`live`: the match has started; `quoted_by`: the casefolded books quoting the market
        in the feed's book."""
        if self.status != "all" and live != (self.status == "live"):
            return False
        return not self.books or bool(self.books & quoted_by)


def quoting_books(
    book: OddsBook, wanted: list[tuple[int, str]]
) -> dict[tuple[int, str], frozenset[str]]:
    """The casefolded bookmakers quoting each (event, market) in `wanted`, per the feed's book
    (under its lock)."""
    found = {}
    for event_id, market in wanted:
        found[(event_id, market)] = frozenset(
            name.casefold()
            for name in book.bookmakers(event_id)
            if book.market(event_id, name, market) is not None
        )
    return found

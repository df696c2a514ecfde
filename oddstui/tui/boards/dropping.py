"""Dropping odds (`6`): prices that shortened, per window, with every /dropping-odds parameter."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Input

from oddstui.api.errors import Forbidden, OddsApiError
from oddstui.api.models import DroppingOdds
from oddstui.api.validate import TIME_WINDOWS
from oddstui.tui.boards.board_cells import percent_text
from oddstui.tui.boards.drop_filter import DropFilter, quoting_books
from oddstui.tui.boards.dropping_export import dropping_record
from oddstui.tui.boards.filters import parse_names, parse_number
from oddstui.tui.boards.order import Rank
from oddstui.tui.boards.rest_board import BoardRow, RestBoardScreen
from oddstui.tui.desk.state import in_play
from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.prices import board_price_text, odds_format
from oddstui.tui.kit.service_clock import hub_service_time
from oddstui.tui.text import clean, plain

#: Items per page unless the trader types another (the service allows up to 200).
PAGE_SIZE = 50
#: The market names /dropping-odds accepts (the seed's list), matched case-insensitively.
MARKETS = (
    "ML", "Spread", "Totals", "Spread HT", "Totals HT", "Totals 1Q", "Spread 1Q",
    "Team Total Home", "Team Total Away", "Corners Spread", "Corners Totals",
    "Corners Spread HT", "Corners Totals HT", "Bookings Spread", "Bookings Totals", "Player Props",
)  # fmt: skip
FORBIDDEN_TEXT = (
    "Dropping odds are only available on paid plans. The service refused this API key's plan "
    "(403 Forbidden): use a key with a paid plan to see this board. Every other board still works."
)


class DroppingOddsScreen(RestBoardScreen):
    """Opening and current prices and the drop per window, largest drop first.

    | key | action |
    |---|---|
    | `t` | next time window: opening, 12h, 24h, 48h |
    | `n` / `]` | next page |
    | `[` | previous page (`p` pauses, as on every board) |
    | `enter` | open the event |
    """

    heading = "Dropping odds"
    WHAT = "the dropping odds"
    REFRESH = 30.0
    RANK_WORD = "drop"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "next_window", "Window", id="drops-next-window"),
        Binding("n,right_square_bracket", "page(1)", "Next page", key_display="n/]",
                id="drops-next-page"),
        Binding("left_square_bracket", "page(-1)", "Prev page", key_display="[",
                id="drops-previous-page"),
    ]  # fmt: skip
    #: At 80 columns the drop, the bet, its opening and current price stay; the windows, the
    #: last move and the league give way (highest number first).
    COLUMNS: ClassVar[list[Column]] = [
        Column("drop", "Drop", 8),
        Column("event", "Event", 24, grow=24),
        Column("market", "Market", 16, grow=16),
        Column("side", "Side", 5),
        Column("opening", "Open", 7, priority=1),  # `≈100/30`
        Column("current", "Now", 7, priority=1),
        Column("since_opening", "vs open", 8, priority=2),
        Column("h12", "12h", 8, priority=3),
        Column("h24", "24h", 8, priority=3),
        Column("h48", "48h", 8, priority=3),
        Column("moved", "Moved", 12, priority=2),  # `27 Nov 17:50`
        Column("league", "League", 24, priority=4, grow=12),
    ]
    MARK_COLUMN = "drop"
    GONE_COLUMN = "moved"
    FILTERS: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("window", "window", "opening"),
        ("min_drop", "min %", "0"),
        ("markets", "markets", "all"),
        ("sport", "sport", "all"),
        ("leagues", "leagues", "all"),
        ("limit", "per page", "50"),
        ("status", "live/pre", "all"),
        ("books", "books", "any"),
    )

    def __init__(self) -> None:
        super().__init__()
        #: The /dropping-odds parameters in force.
        self.window = "opening"
        self.min_drop: float | None = None
        self.markets: tuple[str, ...] = ()
        self.sport: str | None = None
        self.leagues: tuple[str, ...] = ()
        self.page = 1
        self.limit = PAGE_SIZE
        #: The current page's items, in the service's order.
        self.items: list[DroppingOdds] = []
        #: (live, gone) rows shown at the last draw.
        self.shown = (0, 0)
        #: Live or pre-match, and the bookmakers (the page is filtered here, not by the service).
        self.drop_filter = DropFilter()

    def initial_filter(self, name: str) -> str:
        return self.window if name == "window" else ""

    # ------------------------------------------------------------------ data

    def query_params(self) -> dict[str, object]:
        """The keyword arguments of `ApiClient.dropping_odds` for the current filters."""
        params: dict[str, object] = {
            "time_window": self.window,
            "limit": self.limit,
            "page": self.page,
            "include_event_details": True,
        }
        if self.min_drop is not None:
            params["min_drop"] = self.min_drop
        if self.markets:
            params["markets"] = list(self.markets)
        if self.sport:
            params["sport"] = self.sport
        if self.leagues:
            if self.sport and len(self.leagues) == 1:
                params["league"] = self.leagues[0]  # league + sport
            else:
                params["leagues"] = list(self.leagues)
        return params

    async def fetch(self) -> list[DroppingOdds]:
        return await self.hub.api.dropping_odds(**self.query_params())  # type: ignore[arg-type]

    def take_answer(self, answer: list[DroppingOdds], at: float) -> None:
        self.items = answer

    def explain(self, error: OddsApiError) -> str:
        if isinstance(error, Forbidden):
            return FORBIDDEN_TEXT
        return f"Could not load the dropping odds: {clean(error)}"

    def show_rows(self) -> None:
        fmt = odds_format(self.app)
        now = hub_service_time(self.hub)  # a move's age counts on the service's clock
        rows: dict[str, BoardRow] = {}
        for item in self.items:
            key = drop_row_key(item)
            if self.ended_row(item.event_id, key):
                continue
            event = self.event_of(item.event_id)
            summary = item.event
            start, sport = None, ""
            if event is not None:
                title, league = event.title, event.league_name
                start, sport = event.start, event.sport_name
            elif summary is not None:
                title = f"{summary.home} v {summary.away}"
                league = summary.league.name if summary.league else ""
                start, sport = summary.date, summary.sport.name if summary.sport else ""
            else:
                title, league = f"event {item.event_id}", ""
            market = " ".join(
                part
                for part in (
                    item.market_name,
                    item.market_label or "",
                    "" if item.market_hdp is None else f"{item.market_hdp:g}",
                )
                if part
            )
            drop = self._window_drop(item)
            cells = {
                "drop": percent_text(drop, signed=False, style="bold"),
                "event": plain(title),
                "market": plain(market),
                "side": plain(item.bet_side),
                "opening": Text(board_price_text(item.opening, fmt), justify="right"),
                "current": Text(board_price_text(item.current, fmt), justify="right"),
                "since_opening": percent_text(item.drop_since_opening, signed=False),
                "h12": percent_text(item.drop_12h, signed=False),
                "h24": percent_text(item.drop_24h, signed=False),
                "h48": percent_text(item.drop_48h, signed=False),
                "moved": Text(_moved(item.last_moved_at_ms)),
                "league": plain(league),
            }
            moved = item.last_moved_at_ms
            age = None if moved is None else now - moved / 1000
            rank = Rank(drop, age, start.timestamp() if start else None, sport)
            rows[key] = BoardRow(cells, rank, event_id=item.event_id)
        self.shown = self.place(rows)
        where = f" at or above {self.min_drop:g}%" if self.min_drop else ""
        self.show_table(any(self.shown), f"No dropping odds{where} on page {self.page}.")

    def hidden_by_filters(self, rows: Mapping[str, BoardRow]) -> set[str]:
        """The rows, live or gone, the live/pre and books filters hide at this draw: judged by
        the feed's status now (a match that kicked off since the last answer is live), by the
        start time for an event the desk does not hold."""
        if not self.drop_filter.active:
            return set()
        now = hub_service_time(self.hub)
        wanted = {key: (row.event_id or 0, key.split("|", 2)[1]) for key, row in rows.items()}
        books = self._quoting_books(list(set(wanted.values())))
        hidden = set()
        for key, row in rows.items():
            event = self.event_of(wanted[key][0])
            start = row.rank.start
            live = in_play(event) if event is not None else start is not None and start <= now
            if not self.drop_filter.accepts(live, books.get(wanted[key], frozenset())):
                hidden.add(key)
        return hidden

    def _quoting_books(
        self, wanted: list[tuple[int, str]]
    ) -> dict[tuple[int, str], frozenset[str]]:
        """Which bookmakers quote each (event, market) in the feed's book (only asked when the
        books filter is on: one locked pass)."""
        if not self.drop_filter.books:
            return {}
        return self.hub.read(lambda book: quoting_books(book, wanted)) or {}

    def row_cap(self) -> int | None:
        return self.limit

    def export_records(self) -> list[dict[str, object]]:
        """The prices the board holds, in its order, as data (`dropping_export`)."""
        by_key = {drop_row_key(item): item for item in self.items}
        now = hub_service_time(self.hub)
        keys = self.query_one(PatchTable).row_keys
        return [
            dropping_record(
                by_key[key],
                self.event_of(by_key[key].event_id),
                now,
                self.suspects.get(key, ""),
            )
            for key in keys
            if key in by_key
        ]

    def _window_drop(self, item: DroppingOdds) -> float | None:
        return {
            "opening": item.drop_since_opening,
            "12h": item.drop_12h,
            "24h": item.drop_24h,
            "48h": item.drop_48h,
        }[self.window]

    def summary(self) -> Text:
        text = Text()
        text.append(f"window {self.window} · page {self.page}", "bold")
        text.append(" · ")
        text.append_text(self.counts(*self.shown))
        if self.filtered_out:
            text.append(f" · {self.filtered_out} filtered out")
        if self.markets:
            text.append(" · " + ",".join(self.markets))
        if self.sport or self.leagues:
            text.append(" · " + "/".join(filter(None, [self.sport, ",".join(self.leagues)])))
        text.append(" · drop % = (ref − now)/ref · n/[ pages, t window", "dim")
        return text

    # ------------------------------------------------------------------ filters and keys

    def apply_filter(self, name: str, text: str, submitted: bool) -> bool:
        value = text.strip()
        if name in ("status", "books"):
            self.drop_filter = self.drop_filter.with_field(name, value)
            return False  # the page is filtered here: no new question to the service
        if name == "window":
            if value not in TIME_WINDOWS:
                raise ValueError("window must be one of " + ", ".join(TIME_WINDOWS))
            return self._set(submitted, window=value)
        if name == "min_drop":
            drop = parse_number(value, "minimum drop", maximum=100)
            return self._set(submitted, min_drop=drop)
        if name == "markets":
            wanted = parse_names(value, "markets")
            known = {market.casefold(): market for market in MARKETS}
            unknown = sorted(wanted - set(known))
            if unknown:
                raise ValueError(f"unknown market {unknown[0]!r}: use e.g. ML, Spread, Totals")
            return self._set(submitted, markets=tuple(known[m] for m in sorted(wanted)))
        if name == "sport":
            slug = value.casefold() or None
            sports = self.hub.board.sports
            if slug and sports and slug not in sports:
                raise ValueError(f"sport {value!r} is not a sport slug (e.g. football, tennis)")
            return self._set(submitted, sport=slug)
        if name == "leagues":
            return self._set(submitted, leagues=tuple(sorted(parse_names(value, "leagues"))))
        if name == "limit":
            limit = parse_number(value, "items per page", minimum=1, maximum=200)
            if limit is not None and limit != int(limit):
                raise ValueError("items per page must be a whole number")
            return self._set(submitted, limit=PAGE_SIZE if limit is None else int(limit))
        raise KeyError(name)

    def _set(self, submitted: bool, **values: object) -> bool:
        if not submitted:
            return False
        for attr, value in values.items():
            setattr(self, attr, value)
        self.page = 1
        return True

    def action_next_window(self) -> None:
        index = TIME_WINDOWS.index(self.window) if self.window in TIME_WINDOWS else -1
        self.window = TIME_WINDOWS[(index + 1) % len(TIME_WINDOWS)]
        self.query_one("#filter-window", Input).value = self.window
        self.page = 1
        self.new_question()
        self.action_refresh_now()

    def action_page(self, step: int) -> None:
        if step < 0 and self.page == 1:
            self.notify("This is the first page.", timeout=2)
            return
        if step > 0 and len(self.items) < self.limit:
            self.notify("This is the last page.", timeout=2)
            return
        self.page += step
        self.new_question()
        self.action_refresh_now()

    def selected_event_id(self) -> int | None:
        key = self.query_one(PatchTable).highlighted_key()
        return None if key is None else int(key.split("|", 1)[0])

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        event_id = self.selected_event_id()
        if event_id is not None:
            self.open_event(event_id)


def drop_row_key(item: DroppingOdds) -> str:
    """The row's key, as `show_rows` makes it."""
    parts = (item.event_id, item.market_name, item.market_hdp, item.market_label, item.bet_side)
    return "|".join(str(part) for part in parts)


def _moved(ms: int | None) -> str:
    """When the price last moved (the service's clock, local time zone)."""
    if ms is None:
        return "–"
    return datetime.fromtimestamp(ms / 1000).strftime("%d %b %H:%M")

"""Value bets (`5`): one bookmaker's prices that beat the fair price, with a Kelly stake."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Input

from oddstui.api.models import ValueBet
from oddstui.book.suspect import suspicion
from oddstui.tui.boards.board_cells import age_text, percent_text
from oddstui.tui.boards.filters import parse_number
from oddstui.tui.boards.order import Rank
from oddstui.tui.boards.rest_board import BoardRow, RestBoardScreen
from oddstui.tui.boards.value.value_export import value_record
from oddstui.tui.boards.value.value_rows import (
    FAIR_CHOICES,
    ValueLine,
    read_sharp_prices,
    value_line,
)
from oddstui.tui.desk.state import in_play
from oddstui.tui.kit.columns import Column
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.kit.prices import board_price_text, odds_format
from oddstui.tui.kit.service_clock import hub_service_time, stale_after
from oddstui.tui.text import clean, plain

SIDE_LABELS = {"home": "home", "draw": "draw", "away": "away", "over": "over", "under": "under"}


class ValueBetsScreen(RestBoardScreen):
    """EV% for the chosen bookmaker against a fair price, with a Kelly stake.

    | key | action |
    |---|---|
    | `b` | next bookmaker of the account |
    | `m` | next fair-price method: the service's, or one made here from a sharp book |
    | `enter` | open the event |
    """

    heading = "Value bets"
    WHAT = "the value bets"
    REFRESH = 30.0
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "next_bookmaker", "Bookmaker", id="value-next-bookmaker"),
        Binding("m", "next_method", "Fair method", id="value-next-method"),
    ]
    #: At 80 columns the edge, the bet and its age stay; the rest give way (highest first).
    COLUMNS: ClassVar[list[Column]] = [
        Column("ev", "EV", 10),
        Column("event", "Event", 24, grow=24),
        Column("market", "Market", 14, grow=14),
        Column("side", "Side", 5),
        Column("price", "Price", 7),  # `≈100/30`
        Column("fair", "Fair", 7, priority=2),
        Column("kelly", "Kelly", 8, priority=3),
        Column("method", "De-vig", 18, priority=4),
        Column("age", "Age", 8, priority=1),
        Column("league", "League", 24, priority=4, grow=12),
    ]
    MARK_COLUMN = "ev"
    GONE_COLUMN = "age"
    FILTERS: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("bookmaker", "book", "b cycles"),
        ("sport", "sport", "all"),
        ("league", "league", "all"),
        ("bankroll", "bankroll", "1000"),
        ("fraction", "kelly×", "0.25"),
    )

    def __init__(self) -> None:
        super().__init__()
        #: The account's bookmakers (asked once), and the one shown.
        self.bookmakers: list[str] = []
        self.bookmaker: str | None = None
        self.sport: str | None = None
        self.league: str | None = None
        #: Kelly stakes are `fraction` of full Kelly on `bankroll` (from the settings).
        self.bankroll, self.fraction = 1000.0, 0.25
        self.cap = 1.0  # the largest Kelly stake, a share of the bankroll (settings: kelly_cap)
        #: Index into `FAIR_CHOICES`.
        self.method = 0
        #: The last answer, best EV first.
        self.items: list[ValueBet] = []
        #: The lines of the last draw by id (held while paused): what is shown and exported.
        self.drawn: dict[str, ValueLine] = {}
        #: The fair choice those lines were drawn with (`m` while paused shows at `p`).
        self.drawn_method = FAIR_CHOICES[self.method]
        #: (live, gone) rows shown at the last draw.
        self.shown = (0, 0)

    def on_mount(self) -> None:
        settings = self.app.settings
        self.bankroll, self.fraction = float(settings.bankroll), float(settings.kelly_fraction)
        self.cap = float(getattr(settings, "kelly_cap", 1.0))
        self.query_one("#filter-bankroll", Input).value = f"{self.bankroll:g}"
        self.query_one("#filter-fraction", Input).value = f"{self.fraction:g}"
        super().on_mount()

    # ------------------------------------------------------------------ data

    async def fetch(self) -> list[ValueBet]:
        if not self.bookmakers:
            selected = await self.hub.api.selected_bookmakers()
            self.bookmakers = list(selected.bookmakers)
        if self.bookmaker is None:
            if not self.bookmakers:
                return []
            self.bookmaker = self.bookmakers[0]
            self.query_one("#filter-bookmaker", Input).value = self.bookmaker
        return await self.hub.api.value_bets(
            self.bookmaker, sport=self.sport, league=self.league, include_event_details=True
        )

    def take_answer(self, answer: list[ValueBet], at: float) -> None:
        self.items = answer

    def lines(self) -> list[ValueLine]:
        method, items = FAIR_CHOICES[self.method], self.items
        sharp = None
        if method != "service":
            # The one locked pass copies the sharp prices out; the maths runs after it.
            sharp = self.hub.read(lambda book: read_sharp_prices(book, items))
        return [
            value_line(
                item,
                method,
                self.bankroll,
                self.fraction,
                sharp.of(item) if sharp else None,
                self.cap,
            )
            for item in items
        ]

    def show_rows(self) -> None:
        fmt = odds_format(self.app)
        # Ages count on the service's clock; a match's last change was stamped on ours.
        now = hub_service_time(self.hub)
        shift = now - self.hub.now()
        rows: dict[str, BoardRow] = {}
        if not self.hold():  # paused, the sharp prices in the book move on: not these lines
            self.drawn = {line.item.id: line for line in self.lines()}
            self.drawn_method = FAIR_CHOICES[self.method]
        for line in self.drawn.values():
            item = line.item
            if self.ended_row(item.event_id, item.id):
                continue
            event = self.event_of(item.event_id)
            summary = item.event
            title = (
                event.title if event else (f"{summary.home} v {summary.away}" if summary else "")
            )
            league = (
                event.league_name
                if event
                else (summary.league.name if summary and summary.league else "")
            )
            market = item.market_name
            if item.market_hdp is not None:
                market += f" {item.market_hdp:g}"
            quoted = item.bookmaker_updated_at or item.expected_value_updated_at
            quoted_at = None if quoted is None else quoted.timestamp()
            age = None if quoted_at is None else now - quoted_at
            cells = {
                "ev": percent_text(line.ev, style="bold"),
                "event": plain(title or f"event {item.event_id}"),
                "market": plain(market),
                "side": plain(SIDE_LABELS.get(item.bet_side, item.bet_side)),
                "price": Text(board_price_text(line.price, fmt), justify="right"),
                "fair": Text(board_price_text(line.fair, fmt), justify="right"),
                "kelly": Text("–" if line.kelly is None else f"{line.kelly:.2f}", justify="right"),
                "method": plain(line.method, "" if line.fair else "dim"),
                "age": age_text(age),
                "league": plain(league),
            }
            start = event.start if event else (summary.date if summary else None)
            sport = (
                event.sport_name
                if event
                else (summary.sport.name if summary and summary.sport else "")
            )
            rank = Rank(line.ev, age, start.timestamp() if start else None, sport)
            changed = self.hub.board.match_changed.get(item.event_id)
            live = in_play(event)
            suspect = suspicion(
                line.ev,
                [quoted_at],
                None if changed is None else changed + shift,
                self.suspect_profit,
                age,
                stale_after(self.app.settings, live),
                live,
            )
            rows[item.id] = BoardRow(cells, rank, suspect, item.event_id)
        self.shown = self.place(rows)
        self.show_table(bool(rows) or bool(self.shown[1]), self._empty_text())

    def export_records(self) -> list[dict[str, object]]:
        """The value bets the board holds, in its order, as data (`value_export`)."""
        by_id = self.drawn
        now = hub_service_time(self.hub)
        keys = self.query_one(PatchTable).row_keys
        return [
            value_record(
                by_id[key], self.event_of(by_id[key].item.event_id), now, self.suspects.get(key, "")
            )
            for key in keys
            if key in by_id
        ]

    def _empty_text(self) -> str:
        if self.bookmaker is None:
            return "No bookmaker: this account has none selected."
        where = f" in {self.league or self.sport}" if self.sport else ""
        return f"No value bets at {clean(self.bookmaker)}{where} right now."

    def summary(self) -> Text:
        text = Text()
        text.append(f"{clean(self.bookmaker or '–')}", "bold")
        text.append(" · ")
        text.append_text(self.counts(*self.shown))
        text.append(f" · fair: {self.drawn_method}")
        if FAIR_CHOICES[self.method] != self.drawn_method:
            text.append(f" (→ {FAIR_CHOICES[self.method]} at p)", "dim")
        text.append(f" · Kelly {self.fraction:g} × bankroll {self.bankroll:g}")
        if self.cap < 1.0:
            text.append(f", at most {self.cap * self.bankroll:g}")
        text.append(" · EV = p·d − 1", "dim")
        return text

    # ------------------------------------------------------------------ filters

    def apply_filter(self, name: str, text: str, submitted: bool) -> bool:
        value = text.strip()
        if name == "bankroll":
            amount = parse_number(value, "bankroll")
            if amount is None or amount <= 0:
                raise ValueError("bankroll must be a number above zero")
            self.bankroll = amount
            return False
        if name == "fraction":
            fraction = parse_number(value, "Kelly fraction", maximum=1)
            if fraction is None or fraction <= 0:
                raise ValueError("Kelly fraction must be above 0 and at most 1")
            self.fraction = fraction
            return False
        if name == "bookmaker":
            if not value:
                raise ValueError("bookmaker: type one of " + ", ".join(self.bookmakers[:6]))
            match = [b for b in self.bookmakers if b.casefold() == value.casefold()]
            if self.bookmakers and not match:
                raise ValueError(
                    f"bookmaker {value!r} is not selected for this account "
                    f"(one of {', '.join(self.bookmakers[:6])}…)"
                )
            if not submitted:
                return False
            self.bookmaker = match[0] if match else value
            return True
        if name == "sport":
            sports = self.hub.board.sports
            slug = value.casefold() or None
            if slug and sports and slug not in sports:
                raise ValueError(f"sport {value!r} is not a sport slug (e.g. football, tennis)")
            if not submitted:
                return False
            self.sport = slug
            if slug is None:
                self.league = None
            return True
        if name == "league":
            slug = value.casefold() or None
            if slug and not self.sport:
                raise ValueError("a league needs a sport: fill in the sport first")
            known = self.hub.board.leagues.get(self.sport or "")
            if slug and known and slug not in {league.slug for league in known}:
                raise ValueError(f"league {value!r} is not a league of {self.sport}")
            if not submitted:
                return False
            self.league = slug
            return True
        raise KeyError(name)

    # ------------------------------------------------------------------ keys

    def action_next_bookmaker(self) -> None:
        if not self.bookmakers:
            return
        index = self.bookmakers.index(self.bookmaker) if self.bookmaker in self.bookmakers else -1
        self.bookmaker = self.bookmakers[(index + 1) % len(self.bookmakers)]
        self.query_one("#filter-bookmaker", Input).value = self.bookmaker
        self.items = []
        self.new_question()
        self.show_rows()
        self.action_refresh_now()

    def action_next_method(self) -> None:
        self.method = (self.method + 1) % len(FAIR_CHOICES)
        self.show_rows()

    def selected_event_id(self) -> int | None:
        key = self.query_one(PatchTable).highlighted_key()
        line = None if key is None else self.drawn.get(key)
        return None if line is None else line.item.event_id

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        event_id = self.selected_event_id()
        if event_id is not None:
            self.open_event(event_id)

"""The alert rule modal (`a` on the watchlist, `enter` on the alert rules screen): a price
threshold, an arbitrage profit and a steam move for one starred event. Goals, status changes,
half-time and full-time of a starred event always alert, and red cards where the scores carry
them (the built-in service sends them, `redCards`; the public v3 scores carry none, so the modal
says both rather than promise them everywhere).

A price rule is checked against the markets, lines and sides the event really has (the feed's
book, else one GET /odds), and refused with what the event offers when it names something else.
Opened on an existing rule, the fields show it and saving replaces it.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, RadioButton, RadioSet, Static

from oddstui.api.errors import OddsApiError
from oddstui.api.rest import ApiClient
from oddstui.api.validate import MAX_BOOKMAKERS
from oddstui.tui.alerts.checks import (
    Offered,
    check_price_rule,
    market_names,
    offered_from_record,
)
from oddstui.tui.alerts.rules import ArbitrageRule, PriceRule, SteamRule, parse_threshold
from oddstui.tui.text import clean

RuleSet = tuple[PriceRule | None, ArbitrageRule | None]
#: Markets named in the modal's "Offers:" line (the main ones first).
OFFERS_SHOWN = 4
#: What alerts on a starred event with no rule. The built-in service's scores carry red cards
#: (`redCards`, ours); the public v3 scores carry none, so they cannot alert there.
ALWAYS_ALERT = (
    "Goals, status, half-time, full-time and red cards always alert (the built-in "
    "service's scores carry red cards; the public v3 scores do not)."
)


def parse_rules(
    event_id: int,
    market: str,
    line: str,
    side: str,
    threshold: str,
    above: bool,
    min_profit: str,
    offered: Offered | None = None,
) -> RuleSet:
    """The rules typed in the modal; ValueError says in plain words what is wrong.

    With `offered` (what the event quotes), a price rule on anything else is refused."""
    price_rule = None
    if threshold.strip():
        if not market.strip() or not side.strip():
            raise ValueError("a price alert needs a market and a side")
        hdp = None
        if line.strip():
            try:
                hdp = float(line)
            except ValueError:
                raise ValueError("the line must be a number, e.g. 2.5 or -1.5") from None
        price_rule = PriceRule(
            event_id, market.strip(), side.strip(), parse_threshold(threshold), above, hdp
        )
        if offered is not None:
            price_rule = check_price_rule(price_rule, offered)
    arb_rule = None
    if min_profit.strip():
        try:
            profit = float(min_profit)
        except ValueError:
            raise ValueError("the minimum profit must be a number of percent, e.g. 1.5") from None
        if not 0 <= profit < 100:
            raise ValueError("the minimum profit must be from 0 up to 100 percent")
        arb_rule = ArbitrageRule(event_id, profit)
    if price_rule is None and arb_rule is None:
        raise ValueError("set a threshold, a minimum arbitrage profit, or both")
    return price_rule, arb_rule


_STEAM = re.compile(
    r"^\s*(?P<move>[^\s%]+)\s*%?\s*(?:in\s*)?(?:(?P<within>[0-9.]+)\s*s?\b)?\s*(?:at\s+)?"
    r"(?P<books>.*)$",
    re.IGNORECASE,
)


def parse_steam(event_id: int, text: str, market: str = "ML") -> SteamRule | None:
    """`5% in 60s at Pinnacle, Bet365` (or `5 60 Pinnacle, Bet365`): a steam alert when a
    `market` price shortens 5 % or more within 60 seconds at Pinnacle or Bet365 (no books: at
    any; no seconds: a minute). Blank is no steam alert."""
    found = _STEAM.match(text)
    if not text.strip() or found is None:
        return None
    try:
        move = float(found["move"])
        within = float(found["within"]) if found["within"] else 60.0
    except ValueError:
        raise ValueError(
            "steam: a move in percent, then seconds, e.g. 5% in 60s at Pinnacle"
        ) from None
    if not 0 < move < 100 or not 0 < within <= 3600:
        raise ValueError("steam: a move above 0 and under 100 %, within 1 s to an hour")
    books = tuple(b.strip() for b in found["books"].split(",") if b.strip())
    return SteamRule(event_id, move, within, books, market.strip() or "ML")


def steam_text(rule: SteamRule | None) -> str:
    """The rule as the modal's field shows it (and `parse_steam` reads it back)."""
    if rule is None:
        return ""
    books = f" at {', '.join(rule.bookmakers)}" if rule.bookmakers else ""
    return f"{rule.move_pct:g}% in {rule.within_s:g}s{books}"


class AlertRuleModal(ModalScreen[RuleSet | None]):
    """Set a price threshold and an arbitrage profit for one event.

    | key | action |
    |---|---|
    | `enter` | save the rules |
    | `escape` | cancel |
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="alert-cancel"),
    ]

    def __init__(
        self,
        event_id: int,
        title: str,
        *,
        price_rule: PriceRule | None = None,
        arb_rule: ArbitrageRule | None = None,
        offered: Offered | None = None,
        steam_rule: SteamRule | None = None,
    ) -> None:
        super().__init__()
        self.event_id = event_id
        self.title_text = title
        self.price_rule, self.arb_rule = price_rule, arb_rule
        self.steam_rule = steam_rule
        #: The steam rule as saved (None: none); read by the caller after `enter`.
        self.steam_saved: SteamRule | None = steam_rule
        #: What the event quotes (market -> line -> sides); None until known.
        self.offered = offered
        #: Why `offered` could not be loaded, or "".
        self.offered_error = ""

    def compose(self) -> ComposeResult:
        rule = self.price_rule
        line = "" if rule is None or rule.hdp is None else f"{rule.hdp:g}"
        threshold = "" if rule is None else f"{rule.threshold:g}"
        profit = "" if self.arb_rule is None else f"{self.arb_rule.min_profit:g}"
        above = rule is None or rule.above
        with Vertical(id="alert-box"):
            verb = "Edit alerts for " if rule or self.arb_rule else "Alerts for "
            yield Static(Text(verb, style="bold").append(clean(self.title_text)))
            yield Static(
                f"{ALWAYS_ALERT} Add a price "
                "threshold (best price across bookmakers), a minimum arbitrage profit and/or a "
                "steam move (ML).",
                classes="alert-hint",
            )
            for field_id, label, value, hint in (
                ("market", "Market", rule.market if rule else "ML", "ML, Spread, Totals…"),
                ("line", "Line", line, "blank for ML, else 2.5 / -1.5"),
                ("side", "Side", rule.side if rule else "home", "home, draw, away, over…"),
                ("threshold", "Threshold", threshold, "decimal price, e.g. 2.50"),
            ):
                with Horizontal(classes="alert-row"):
                    yield Label(label)
                    yield Input(value, placeholder=hint, id=f"alert-{field_id}", compact=True)
            with RadioSet(id="alert-direction"):
                yield RadioButton("rises to the threshold", value=above, id="alert-above")
                yield RadioButton("falls to the threshold", value=not above, id="alert-below")
            with Horizontal(classes="alert-row"):
                yield Label("Arbitrage ≥ %")
                yield Input(profit, placeholder="e.g. 1.0", id="alert-profit", compact=True)
            with Horizontal(classes="alert-row"):
                yield Label("Steam")
                yield Input(
                    steam_text(self.steam_rule),
                    placeholder="5% in 60s at Pinnacle, Bet365",
                    id="alert-steam",
                    compact=True,
                )
            yield Static(self._offers_text(), classes="alert-offers")
            yield Static("", classes="alert-error")
            yield Static("enter saves · escape cancels", classes="alert-hint")

    def on_mount(self) -> None:
        self.query_one("#alert-threshold", Input).focus()
        if self.offered is None:
            self.run_worker(self._load_offered(), exit_on_error=False)

    async def _load_offered(self) -> None:
        """What the event quotes, asked of the service when the feed's book has nothing."""
        api: ApiClient = self.app.hub.api  # type: ignore[attr-defined]
        try:
            books = list((await api.selected_bookmakers()).bookmakers)[:MAX_BOOKMAKERS]
            self.offered = offered_from_record(await api.odds(self.event_id, books))
        except OddsApiError as error:
            self.offered_error = clean(error)
        with contextlib.suppress(Exception):  # closed meanwhile
            self.query_one(".alert-offers", Static).update(self._offers_text())

    def _offers_text(self) -> Text:
        if self.offered is None:
            if self.offered_error:
                return Text(f"The event's markets could not be loaded: {self.offered_error}")
            return Text("Loading the event's markets…", style="dim")
        names = market_names(self.offered)
        text = Text("Offers: " + (", ".join(names[:OFFERS_SHOWN]) or "no prices yet"), "dim")
        if len(names) > OFFERS_SHOWN:
            text.append(f" and {len(names) - OFFERS_SHOWN} more markets")
        return text

    def _value(self, field_id: str) -> str:
        return self.query_one(f"#alert-{field_id}", Input).value

    def on_input_submitted(self, event: Input.Submitted) -> None:
        above = self.query_one("#alert-above", RadioButton).value
        try:
            if self.offered is None and not self.offered_error and self._value("threshold"):
                raise ValueError("still loading the event's markets: try again in a moment")
            steam = parse_steam(self.event_id, self._value("steam"))
            rules: RuleSet = (None, None)
            if steam is None or self._value("threshold").strip() or self._value("profit").strip():
                rules = parse_rules(
                    self.event_id,
                    self._value("market"),
                    self._value("line"),
                    self._value("side"),
                    self._value("threshold"),
                    above,
                    self._value("profit"),
                    self.offered,
                )
            self.steam_saved = steam
        except ValueError as error:
            self.query_one(".alert-error", Static).update(Text(f"✗ {error}"))
            return
        self.dismiss(rules)

    def action_cancel(self) -> None:
        self.dismiss(None)


def open_alert_rule(
    screen: Any,
    event_id: int | None = None,
    *,
    price_rule: PriceRule | None = None,
    arb_rule: ArbitrageRule | None = None,
    blank: bool = False,
) -> None:
    """The rules of an event in the modal: `a` on the watchlist opens the highlighted event's
    (its first price rule and its arbitrage rule, filled in); the rules screen passes the rule
    to edit, or `blank` for a new one. Saving replaces what was opened."""
    event_id = screen.selected_event_id() if event_id is None else event_id
    if event_id is None:
        screen.notify("Highlight a starred event to set its alerts.", severity="warning")
        return
    alerts = screen.app.alerts
    steam_rule = None
    if alerts is not None:
        steam_rule = next((r for r in alerts.rules.steams if r.event_id == event_id), None)
    if alerts is not None and not blank and price_rule is None and arb_rule is None:
        for rule in alerts.rules.rules_of(event_id):
            if isinstance(rule, PriceRule) and price_rule is None:
                price_rule = rule
            elif isinstance(rule, ArbitrageRule):
                arb_rule = rule
    hub = screen.hub
    event = hub.board.events.get(event_id)
    title = event.title if event is not None else f"event {event_id}"
    from oddstui.tui.alerts.checks import offered_from_book

    offered = hub.read(lambda book: offered_from_book(book, event_id)) or None

    def saved(rules: RuleSet | None) -> None:
        if rules is None or alerts is None:
            return
        alerts.save_edit((price_rule, arb_rule), rules)
        alerts.set_steam_rule(event_id, modal.steam_saved)
        screen.notify(f"Alerts set for {clean(title)}", timeout=3, markup=False)

    modal = AlertRuleModal(
        event_id,
        title,
        price_rule=price_rule,
        arb_rule=arb_rule,
        offered=offered,
        steam_rule=steam_rule,
    )
    screen.app.push_screen(modal, saved)

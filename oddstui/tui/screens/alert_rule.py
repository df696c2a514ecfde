"""The alert rule modal (`a` on the watchlist): a price threshold and an arbitrage profit for one
starred event. Goals and status changes of a starred event always alert."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, RadioButton, RadioSet, Static

from oddstui.tui.alert_rules import ArbitrageRule, PriceRule, parse_threshold
from oddstui.tui.text import clean

RuleSet = tuple[PriceRule | None, ArbitrageRule | None]


def parse_rules(
    event_id: int,
    market: str,
    line: str,
    side: str,
    threshold: str,
    above: bool,
    min_profit: str,
) -> RuleSet:
    """The rules typed in the modal; ValueError says in plain words what is wrong."""
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

    def __init__(self, event_id: int, title: str) -> None:
        super().__init__()
        self.event_id = event_id
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(id="alert-box"):
            heading = Text("Alerts for ", style="bold").append(clean(self.title_text))
            yield Static(heading)
            yield Static(
                "Goals and status changes always alert. Add a price threshold (best price "
                "across bookmakers) and/or a minimum arbitrage profit.",
                classes="alert-hint",
            )
            for field_id, label, value, hint in (
                ("market", "Market", "ML", "ML, Spread, Totals…"),
                ("line", "Line", "", "blank for ML, else 2.5 / -1.5"),
                ("side", "Side", "home", "home, draw, away, over, under…"),
                ("threshold", "Threshold", "", "decimal price, e.g. 2.50"),
            ):
                with Horizontal(classes="alert-row"):
                    yield Label(label)
                    yield Input(value, placeholder=hint, id=f"alert-{field_id}", compact=True)
            with RadioSet(id="alert-direction"):
                yield RadioButton("rises to the threshold", value=True, id="alert-above")
                yield RadioButton("falls to the threshold", id="alert-below")
            with Horizontal(classes="alert-row"):
                yield Label("Arbitrage ≥ %")
                yield Input(placeholder="e.g. 1.0", id="alert-profit", compact=True)
            yield Static("", classes="alert-error")
            yield Static("enter saves · escape cancels", classes="alert-hint")

    def on_mount(self) -> None:
        self.query_one("#alert-threshold", Input).focus()

    def _value(self, field_id: str) -> str:
        return self.query_one(f"#alert-{field_id}", Input).value

    def on_input_submitted(self, event: Input.Submitted) -> None:
        above = self.query_one("#alert-above", RadioButton).value
        try:
            rules = parse_rules(
                self.event_id,
                self._value("market"),
                self._value("line"),
                self._value("side"),
                self._value("threshold"),
                above,
                self._value("profit"),
            )
        except ValueError as error:
            self.query_one(".alert-error", Static).update(Text(str(error)))
            return
        self.dismiss(rules)

    def action_cancel(self) -> None:
        self.dismiss(None)


def open_alert_rule(screen: Any) -> None:
    """`a` on the watchlist: the rules of the highlighted event."""
    event_id = screen.selected_event_id()
    if event_id is None:
        screen.notify("Highlight a starred event to set its alerts.", severity="warning")
        return
    event = screen.hub.board.events.get(event_id)
    title = event.title if event is not None else f"event {event_id}"
    alerts = screen.app.alerts

    def saved(rules: RuleSet | None) -> None:
        if rules is None or alerts is None:
            return
        price_rule, arb_rule = rules
        if arb_rule is not None:
            alerts.set_arbitrage_rule(arb_rule)
        if price_rule is not None:
            alerts.add_price_rule(price_rule)
        screen.notify(f"Alerts set for {clean(title)}", timeout=3, markup=False)

    screen.app.push_screen(AlertRuleModal(event_id, title), saved)

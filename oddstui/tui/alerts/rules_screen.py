"""Alert rules (`A`): every rule with its last firing, edited or deleted here, and the alerts of
this session with their time, rule and price."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static

from oddstui.tui.alerts.alert_export import write_alerts
from oddstui.tui.alerts.center import AlertCenter
from oddstui.tui.alerts.rule_modal import open_alert_rule
from oddstui.tui.alerts.rules import ArbitrageRule, PriceRule, SteamRule
from oddstui.tui.desk.state import ChangeSet
from oddstui.tui.kit.board_screen import BoardScreen
from oddstui.tui.kit.patch_table import PatchTable
from oddstui.tui.text import plain

Rule = PriceRule | ArbitrageRule | SteamRule

RULE_COLUMNS: list[tuple[str, str, int | None]] = [
    ("event", "Event", 26),
    ("rule", "Rule", 26),
    ("fired", "Last fired", 12),
    ("price", "At", 8),
]
HISTORY_COLUMNS: list[tuple[str, str, int | None]] = [
    ("time", "Time", 8),
    ("kind", "Alert", 9),
    ("event", "Event", 22),
    ("rule", "Rule", 22),
    ("price", "At", 8),
]


def _clock(at: float) -> Text:
    return Text(datetime.fromtimestamp(at).strftime("%H:%M:%S"))


def _fired_when(at: float, now: float) -> Text:
    """The time of a firing today; the day too for one of an earlier day."""
    when = datetime.fromtimestamp(at)
    if when.date() == datetime.fromtimestamp(now).date():
        return Text(when.strftime("%H:%M:%S"))
    return Text(when.strftime("%d %b %H:%M"))


def _at(kind: str, price: float | None) -> Text:
    if price is None:
        return Text("")
    shown = f"{price:.2f}%" if kind == "arbitrage" else f"{price:.2f}"
    return Text(shown, justify="right")


class AlertRulesScreen(BoardScreen):
    """The alert rules and the session's alerts.

    | key | action |
    |---|---|
    | `enter` | edit the highlighted rule (the modal opens with its fields filled) |
    | `d` / `delete` | delete the highlighted rule |
    | `n` | a new rule for the highlighted rule's event |
    | `tab` | between the rules and the history |
    | `e` / `E` | export the session's alerts as CSV / JSON (in the working folder) |
    """

    heading = "Alert rules"
    AUTO_FOCUS = "#alert-rules"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d,delete", "delete_rule", "Delete", key_display="d", id="rules-delete"),
        Binding("n", "new_rule", "New", id="rules-new"),
        Binding("e", "export_alerts('csv')", "Export", id="rules-export"),
        Binding("E", "export_alerts('json')", "JSON", show=False, id="rules-export-json"),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: Row key -> the rule it shows.
        self.shown: dict[str, Rule] = {}

    def compose_body(self) -> ComposeResult:
        yield Static("", classes="summary")
        rules = PatchTable(id="alert-rules")
        rules.set_columns(RULE_COLUMNS)
        yield rules
        yield Static(
            "No alert rules: press a on a starred event in the watchlist.",
            id="rules-empty",
            classes="empty",
        )
        yield Static(Text("Alerts this session", style="bold"), classes="heading")
        history = PatchTable(id="alert-history")
        history.set_columns(HISTORY_COLUMNS)
        yield history
        yield Static("No alert yet this session.", id="history-empty", classes="empty")

    @property
    def alerts(self) -> AlertCenter:
        return getattr(self.app, "alerts")  # noqa: B009 - the app type would import us

    def on_mount(self) -> None:
        super().on_mount()
        self.alerts.delivered.subscribe(self, self._delivered)

    def _delivered(self, _firing: object) -> None:
        # The session list is `alerts.history`, the list the export writes: redrawn on each
        # delivery, not on the hub's next change (which may be a quiet minute away).
        if self.on_top:
            self.redraw()

    def redraw(self) -> None:
        self._show_rules()
        self._show_history()

    def patch(self, changes: ChangeSet) -> None:
        self.redraw()  # a few rows: cheaper than working out which changed

    def _title(self, event_id: int) -> Text:
        event = self.hub.board.events.get(event_id)
        if event is not None:
            return plain(event.title)
        watched = {item.id: item for item in self.hub.watchlist}.get(event_id)
        return plain(f"{watched.home} v {watched.away}" if watched else f"event {event_id}")

    def _show_rules(self) -> None:
        table = self.query_one("#alert-rules", PatchTable)
        rules = self.alerts.rules.all()
        # An edited rule keeps its place in the list but gets a new key: keep the cursor on the
        # place, not on whichever row the table moved it to when the old key went.
        place = table.cursor_row
        self.shown = {f"{index}|{rule!r}": rule for index, rule in enumerate(rules)}
        now = self.hub.now()
        for key, rule in self.shown.items():
            fired = self.alerts.last_fired(rule)
            table.sync_row(
                key,
                {
                    "event": self._title(rule.event_id),
                    "rule": plain(rule.describe()),
                    "fired": _fired_when(fired.at, now) if fired else Text("never", style="dim"),
                    "price": _at(fired.kind, fired.value) if fired else Text(""),
                },
            )
        table.keep_rows(self.shown)
        table.order_rows(list(self.shown))
        if rules and table.cursor_row != min(place, len(rules) - 1):
            table.move_cursor(row=min(place, len(rules) - 1))
        table.display = bool(rules)
        self.query_one("#rules-empty").display = not rules
        events = len({rule.event_id for rule in rules})
        summary = Text(
            f"{len(rules)} rule{'s' * (len(rules) != 1)} on {events} event{'s' * (events != 1)}",
            style="bold",
        )
        summary.append(" · enter edits · d deletes · n new rule · e export alerts")
        self.query_one(".summary", Static).update(summary)

    def _show_history(self) -> None:
        table = self.query_one("#alert-history", PatchTable)
        history = self.alerts.history
        for index, firing in enumerate(history):
            key = str(index)
            if key in table.rows:
                continue
            alert = firing.alert
            table.sync_row(
                key,
                {
                    "time": _clock(firing.at),
                    "kind": plain(alert.kind),
                    "event": self._title(alert.event_id),
                    "rule": plain(alert.rule.describe() if alert.rule else alert.message),
                    "price": _at(alert.kind, alert.price),
                },
            )
        table.order_rows([str(index) for index in reversed(range(len(history)))])
        table.display = bool(history)
        self.query_one("#history-empty").display = not history

    # ------------------------------------------------------------------ keys

    def _highlighted(self) -> Rule | None:
        key = self.query_one("#alert-rules", PatchTable).highlighted_key()
        return None if key is None else self.shown.get(key)

    def selected_event_id(self) -> int | None:
        rule = self._highlighted()
        return None if rule is None else rule.event_id

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        rule = self._highlighted()
        if event.data_table.id != "alert-rules" or rule is None:
            return
        if isinstance(rule, SteamRule):
            self.notify(
                "A steam rule is edited in alerts.toml ([[steam]]); d deletes it.", timeout=6
            )
            return
        if isinstance(rule, PriceRule):
            arb = next(
                (r for r in self.alerts.rules.arbitrages if r.event_id == rule.event_id), None
            )
            open_alert_rule(self, rule.event_id, price_rule=rule, arb_rule=arb)
        else:
            open_alert_rule(self, rule.event_id, arb_rule=rule)

    def action_delete_rule(self) -> None:
        rule = self._highlighted()
        if rule is None:
            self.notify("Highlight a rule to delete it.", severity="warning")
            return
        self.alerts.delete_rule(rule)
        self.notify(f"Deleted: {rule.describe()}", timeout=3, markup=False)
        self.redraw()

    def action_export_alerts(self, fmt: str) -> None:
        history = self.alerts.history
        try:
            path = write_alerts(Path.cwd(), history, fmt, datetime.now())
        except OSError as error:
            self.notify(f"Could not export: {error.strerror}", severity="error", markup=False)
            return
        self.notify(f"Exported {len(history)} alerts to {path.name}", timeout=6, markup=False)

    def action_new_rule(self) -> None:
        rule = self._highlighted()
        if rule is None:
            self.notify("Star an event and press a on it in the watchlist.", severity="warning")
            return
        open_alert_rule(self, rule.event_id, blank=True)

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        self.redraw()  # back from the modal: the rule may have changed

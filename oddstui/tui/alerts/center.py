"""The alert center: watches the starred events through the hub's change sets and tells the
trader (a notification, the terminal bell, and an OSC 9 desktop notification when enabled).

The rules and the de-duplication live in `alert_rules` (no textual); this module only feeds
them from the hub and delivers what they return.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from textual.signal import Signal

from oddstui.book.alert_eval import Cooldown, advance_trails, fire
from oddstui.book.alert_rules import MOMENT_WORDS, MatchRule, MatchState, PriceKey, Rule, Trail
from oddstui.book.match_clock import scoring_word
from oddstui.book.oddsbook import OddsBook
from oddstui.book.state import LineKey
from oddstui.tui.alerts.arb_trust import QuoteTimes, leg_quote_times, worth_an_alert
from oddstui.tui.alerts.desktop import notify_desktop
from oddstui.tui.alerts.fired_store import LastFired, fired_path, load_fired, save_fired
from oddstui.tui.alerts.rules import (
    Alert,
    ArbitrageRule,
    PriceRule,
    SteamRule,
    Throttle,
    TraderRule,
)
from oddstui.tui.alerts.states import Arbs, match_state, update_arbs
from oddstui.tui.alerts.store import load_rules_recovering, rules_path, save_rules
from oddstui.tui.desk.state import LIVE, ChangeSet
from oddstui.tui.kit.service_clock import book_clock, service_time, stale_after
from oddstui.tui.text import clean

if TYPE_CHECKING:
    from oddstui.tui.app import OddsApp

FoundArb = tuple[int, str, LineKey, float, list[tuple[str, float, str]]]
"""An arbitrage found in the book: event, market, line, profit %, (side, price, book) legs."""

#: The feed's state once it streams and the book is current (`DeskStatus.state`).
LIVE_FEED = "live"
#: At this height or less the toasts would cover the board: alerts go to the status bar.
COMPACT_HEIGHT = 30
#: Seconds an alert stays in the status bar (compact terminals).
STATUS_LINE_FOR = 10.0

log = logging.getLogger("oddstui.alerts")


@dataclass(frozen=True, slots=True)
class Firing:
    """One alert delivered this session, and when (Unix time)."""

    at: float
    alert: Alert


class AlertCenter:
    """Checks each change set against the rules of the watched events and delivers alerts.

    | attribute | what it is |
    |---|---|
    | `rules` | the price and arbitrage rules, and what was last seen of each event |
    | `fired` | every alert delivered, oldest first (tests and the log read it) |
    | `history` | the same with the time each was delivered: the session's alert history |
    """

    def __init__(self, app: OddsApp, *, throttle: Throttle | None = None) -> None:
        self.app = app
        self.hub = app.hub
        self.path = rules_path(Path(app.watchlist_path))
        self.rules, self.warning = load_rules_recovering(self.path)
        self.throttle = throttle or Throttle()
        self.fired: list[Alert] = []
        self.history: list[Firing] = []
        #: Published after each alert is added to `history`: the rules screen redraws its
        #: session list from it (a redraw on the hub's changes could run before the check that
        #: delivered them, and then nothing redraws while the feed is quiet).
        self.delivered: Signal[Firing] = Signal(app, "alert-delivered")
        #: Each rule's last firing (by its repr), this session's and earlier ones'.
        self._fired_path = fired_path(self.path)
        self._last_fired = load_fired(self._fired_path)
        self._feed_live = False
        #: A rule that fired stays quiet a while (the same arbitrage never twice a second).
        self.cooldown = Cooldown()
        #: Each starred event as the rules last read it, and what that reading was made of.
        self._states: dict[int, MatchState] = {}
        self._arbs: dict[int, Arbs] = {}
        self._trails: dict[int, dict[PriceKey, Trail]] = {}

    def start(self) -> None:
        """Subscribe to the hub and take each watched event's baseline."""
        self.hub.changed.subscribe(self.app, self.check)
        if self.warning:
            self.app.notify(self.warning, severity="warning", timeout=10, markup=False)
        self.check(ChangeSet())

    # ------------------------------------------------------------------ rules

    def add_price_rule(self, rule: PriceRule) -> None:
        self.rules.add_price(rule)
        self._save()
        self.check(ChangeSet(prices=frozenset({(rule.event_id, "", rule.market)})))

    def match_rules(self, event_id: int) -> list[MatchRule]:
        """Half-time, full-time and red card: every starred event alerts on them."""
        return [MatchRule(event_id, moment) for moment in MOMENT_WORDS]

    def set_steam_rule(self, event_id: int, rule: SteamRule | None) -> None:
        """The event's steam rule set (None: removed), and saved."""
        for old in [r for r in self.rules.steams if r.event_id == event_id]:
            self.rules.remove(old)
        if rule is not None:
            self.rules.set_steam(rule)
        self._save()

    def set_arbitrage_rule(self, rule: ArbitrageRule) -> None:
        self.rules.set_arbitrage(rule)
        self._save()

    def save_edit(
        self,
        old: tuple[PriceRule | None, ArbitrageRule | None],
        new: tuple[PriceRule | None, ArbitrageRule | None],
    ) -> None:
        """What the modal saved: each new rule replaces the one it was opened on (a cleared
        field removes it, a filled one on a blank form adds one)."""
        for before, after in zip(old, new, strict=True):
            if before is not None and after is not None:
                self.rules.replace(before, after)
            elif before is not None:
                self.rules.remove(before)
            elif isinstance(after, PriceRule):
                self.rules.add_price(after)
            elif isinstance(after, ArbitrageRule):
                self.rules.set_arbitrage(after)
        self._save()
        price = new[0]
        if price is not None:
            self.check(ChangeSet(prices=frozenset({(price.event_id, "", price.market)})))

    def delete_rule(self, rule: TraderRule) -> None:
        self.rules.remove(rule)
        self._save()

    def clear_rules(self, event_id: int) -> None:
        self.rules.remove_event(event_id)
        self._save()

    def _follow_rematched(self) -> None:
        """Rules of a starred match found again under a new id move to that id."""
        moved = False
        while self.hub.rematched:
            old, new = self.hub.rematched.popitem()
            moved = self.rules.move_event(old, new) or moved
        if moved:
            self._save()

    def _save(self) -> None:
        try:
            save_rules(self.rules, self.path)
        except OSError as error:
            self.app.notify(
                f"The alert rules could not be saved: {error.strerror}",
                severity="error",
                markup=False,
            )

    # ------------------------------------------------------------------ checking

    def check(self, changes: ChangeSet) -> None:
        self._follow_rematched()
        watched = self.hub.watch.ids()  # a gone entry's id names another match: no alerts
        if not watched:
            return
        alerts: list[Alert] = []
        board = self.hub.board
        trusted = self.hub.status.trustworthy
        for event_id in watched:
            event = board.events.get(event_id)
            if event is None:
                continue
            score = None
            if event.score_home is not None and event.score_away is not None:
                score = (event.score_home, event.score_away)
            if not (trusted and event.score_fresh):
                score = None
            alerts += self.rules.observe_event(
                event_id, event.title, event.status, score, scoring_word(event.sport_slug)
            )
        touched = {key[0] for key in changes.prices} & watched
        # Prices loaded before the feed is live (a REST snapshot at launch, a replay) may be
        # stale or partial: no price rule is judged on them. Once it is live, every rule takes
        # its baseline at once.
        live = self.hub.status.state == LIVE_FEED
        if live and not self._feed_live:
            touched |= {rule.event_id for rule in self.rules.prices} & watched
            changes = replace(changes, prices=changes.prices | self._rule_keys(watched))
        self._feed_live = live
        if touched and live:
            alerts += self._price_alerts(changes, touched)
        alerts += self._rule_alerts(watched, trusted)
        for alert in alerts:
            if self.throttle.admit(alert):
                self.deliver(alert)
        held = self.throttle.take_held()
        if held:
            self.app.notify(f"{held} more alerts held back (too many at once)", timeout=5)

    def _rule_keys(self, watched: set[int]) -> frozenset[tuple[int, str, str]]:
        """A change key per market that a rule of a watched event names."""
        rules = [rule for rule in self.rules.prices if rule.event_id in watched]
        return frozenset((rule.event_id, "", rule.market) for rule in rules)

    def _price_alerts(self, changes: ChangeSet, touched: set[int]) -> list[Alert]:
        """Price rules judged now; the arbitrages and steam prices of the touched events read
        for `_rule_alerts`."""
        rules = [rule for rule in self.rules.prices if rule.event_id in touched]
        arb_events = {r.event_id for r in self.rules.arbitrages} & touched
        keys = [key for key in changes.prices if key[0] in arb_events and len(key) == 3]
        steams = [rule for rule in self.rules.steams if rule.event_id in touched]

        def read(
            book: OddsBook,
        ) -> tuple[
            list[tuple[float | None, str]],
            list[tuple[FoundArb, QuoteTimes]],
            dict[int, dict[PriceKey, float]],
            float,
        ]:
            """Under the feed's lock: the best prices, the arbitrages with their legs' quote
            times and steam prices, copied, and the service's time now."""
            service_now = service_time(book, clock_now, wall_now)
            bests: list[tuple[float | None, str]] = []
            for rule in rules:
                # The book holds only the account's selected bookmakers.
                best = book.best(rule.event_id, rule.market, rule.line, [rule.side])
                bests.append(best.get(rule.side, (None, "")))
            arbs: list[tuple[FoundArb, QuoteTimes]] = []
            for event_id, market, line, arb in book.arbitrages_in(keys):
                legs = [(leg.side, leg.price, leg.bookmaker) for leg in arb.legs]
                found = (event_id, market, line, arb.profit_pct, legs)
                arbs.append((found, leg_quote_times(book, event_id, market, arb)))
            prices: dict[int, dict[PriceKey, float]] = {}
            for steam in steams:
                seen = prices.setdefault(steam.event_id, {})
                for hdp, label in book.lines(steam.event_id, steam.market):
                    quoted = book.quotes(steam.event_id, steam.market, (hdp, label))
                    for bookmaker, sides in quoted.items():
                        if steam.watches(bookmaker):
                            for side, price in sides.items():
                                if price is not None:
                                    key = (steam.market, hdp, label, side, bookmaker)
                                    seen[key] = price
            return bests, arbs, prices, service_now

        wall_now = self.hub.now()
        clock_now = book_clock(self.hub)()
        events, changed_at = self.hub.board.events, self.hub.board.match_changed

        def trusted_arb(event_id: int, quoted: QuoteTimes, service_now: float) -> bool:
            event = events.get(event_id)
            live = event is not None and event.status == LIVE
            changed = changed_at.get(event_id)  # on our clock: moved onto the service's
            on_service = None if changed is None else changed + service_now - wall_now
            return worth_an_alert(
                quoted, service_now, on_service, stale_after(settings, live), live
            )

        settings = self.app.settings
        read_out = self.hub.read(read)
        if read_out is None:
            return []
        bests, quoted_arbs, steam_prices, service_now = read_out
        arbs = [arb for arb, times in quoted_arbs if trusted_arb(arb[0], times, service_now)]
        alerts: list[Alert] = []
        for rule, (price, bookmaker) in zip(rules, bests, strict=True):
            alert = self.rules.observe_price(
                rule, price, bookmaker, self.event_title(rule.event_id)
            )
            if alert is not None:
                alerts.append(alert)
        changed: dict[int, set[str]] = {}
        for key in keys:
            changed.setdefault(key[0], set()).add(key[2])
        found: dict[int, list[tuple[str, LineKey, float, list[tuple[str, float, str]]]]] = {}
        for event_id, market, line, profit, legs in arbs:
            found.setdefault(event_id, []).append((market, line, profit, legs))
        for event_id, markets in changed.items():
            held = self._arbs.get(event_id, {})
            self._arbs[event_id] = update_arbs(held, markets, found.get(event_id, []))
        now = self.hub.now()
        keep = max((rule.within_s for rule in self.rules.steams), default=0.0)
        for event_id, prices in steam_prices.items():
            trails = self._trails.get(event_id, {})
            self._trails[event_id] = advance_trails(trails, prices, now, keep)
        return alerts

    def _rule_alerts(self, watched: set[int], trusted: bool) -> list[Alert]:
        """The book's rules (arbitrage, steam, half-time, full-time, red card) of every starred
        event, judged between its last state and now: one alert per crossing, each rule then
        quiet for its cool-down."""
        now = self.hub.now()
        firings = []
        for event_id in watched:
            event = self.hub.board.events.get(event_id)
            if event is None:
                continue
            after = match_state(
                event,
                now,
                trusted=trusted,
                arbitrages=self._arbs.get(event_id),
                trails=self._trails.get(event_id),
            )
            before = self._states.get(event_id)
            self._states[event_id] = after
            rules: list[Rule] = [
                *self.match_rules(event_id),
                *(r for r in self.rules.arbitrages if r.event_id == event_id),
                *(r for r in self.rules.steams if r.event_id == event_id),
            ]
            if before is None:  # first sight: a baseline, but an arbitrage there is news
                before = replace(after, arbitrages={}, trails={})
                rules = [rule for rule in rules if isinstance(rule, ArbitrageRule)]
            for rule in rules:
                firings += fire(rule, before, after)
        return [Alert.of(firing) for firing in self.cooldown.admit(firings)]

    # ------------------------------------------------------------------ delivery

    def last_firing(self, rule: TraderRule) -> Firing | None:
        for firing in reversed(self.history):
            if firing.alert.rule == rule:
                return firing
        return None

    def last_fired(self, rule: TraderRule) -> LastFired | None:
        """When the rule last fired, in this session or an earlier one (`alerts-fired.toml`)."""
        firing = self.last_firing(rule)
        if firing is not None:
            return LastFired(firing.at, firing.alert.kind, firing.alert.price)
        return self._last_fired.get(repr(rule))

    def event_title(self, event_id: int) -> str:
        """`Home v Away` from the board, else from the starred entry (the board may not hold
        the event yet when its first price arrives)."""
        event = self.hub.board.events.get(event_id)
        if event is not None:
            return event.title
        watched = next((item for item in self.hub.watchlist if item.id == event_id), None)
        return f"{watched.home} v {watched.away}" if watched else f"event {event_id}"

    def compact(self) -> bool:
        """A terminal so small that toasts would cover the board (80x24)."""
        return self.app.size.height <= COMPACT_HEIGHT

    def deliver(self, alert: Alert) -> None:
        if not alert.event:  # goals, status and price alerts: named from the board
            alert = replace(alert, event=clean(self.event_title(alert.event_id)))
        self.fired.append(alert)
        firing = Firing(self.hub.now(), alert)
        self.history.append(firing)
        if alert.rule is not None:
            self._remember(firing, alert.rule)
        self.delivered.publish(firing)
        log.info("%s: %s", alert.title, alert.message)
        if not self.compact():  # else the status bar shows it, on one line (`status_line`)
            self.app.notify(alert.message, title=alert.title, timeout=8, markup=False)
        self.app.bell()
        if self.app.settings.desktop_notifications:
            notify_desktop(self.app, f"{alert.title}: {alert.message}")

    def status_line(self, now: float) -> str:
        """`⚑3 Arsenal v Chelsea: …`: the latest alert and how many came in the last few
        seconds, for the status bar of a compact terminal; empty when none is that recent."""
        if not self.history or not self.compact():
            return ""
        recent = [f for f in self.history if now - f.at <= STATUS_LINE_FOR]
        if not recent:
            return ""
        latest = recent[-1].alert
        said = latest.message
        if not said.startswith(latest.title):
            said = f"{latest.title}: {said}"
        return f"⚑{len(recent)} {said}"

    def _remember(self, firing: Firing, rule: TraderRule) -> None:
        self._last_fired[repr(rule)] = LastFired(firing.at, firing.alert.kind, firing.alert.price)
        try:
            save_fired(self._fired_path, self._last_fired, self.rules.all())
        except OSError as error:  # a lost memory of when, never a lost alert
            log.warning("%s could not be saved: %s", self._fired_path, error.strerror)

"""The desk's alert rules (`book.alert_rules`, `book.alert_eval`, `book.alert_watch`) run over
a recording.

Rules loaded from a file take their first observation as a baseline, as on the desk. Arbitrage
rules are judged by `alert_eval.fire` between an event's arbitrages before and after a record,
with the desk's cool-down; each alert passes the desk's own `Throttle` once (same key, same
alert) with no rate limit: a backtest reports every firing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from oddstui.backtest.feeding import BookFeeder, Touched
from oddstui.backtest.line_state import LineState
from oddstui.book.alert_eval import Cooldown, fire
from oddstui.book.alert_rules import ArbitrageRule, ArbLeg, LineKey, MatchState, PriceRule
from oddstui.book.alert_watch import Alert, AlertRules, Throttle
from oddstui.book.arbitrage import Arbitrage, best_prices, is_lay
from oddstui.book.match_clock import scoring_word
from oddstui.book.oddsbook import OddsBook


@dataclass(frozen=True, slots=True)
class AlertFiring:
    time: float
    alert: Alert
    event: str
    """The event's name (home v away), or its id when the recording has no header for it."""


class AlertRunner:
    def __init__(self, rules: AlertRules) -> None:
        self.rules = rules
        self.firings: list[AlertFiring] = []
        self._now = 0.0
        self._throttle = Throttle(burst=2**62, every=1.0, clock=lambda: self._now)
        self._by_market: dict[tuple[int, str], list[PriceRule]] = {}
        for rule in rules.prices:
            self._by_market.setdefault((rule.event_id, rule.market), []).append(rule)
        self._arb_rules: dict[int, list[ArbitrageRule]] = {}
        for arb_rule in rules.arbitrages:
            self._arb_rules.setdefault(arb_rule.event_id, []).append(arb_rule)
        self._arbs: dict[int, dict[tuple[str, LineKey], tuple[float, tuple[ArbLeg, ...]]]] = {}
        self._arb_seen: dict[int, MatchState] = {}
        self._cooldown = Cooldown()
        self._watched = {rule.event_id for rule in rules.all()}
        self._baselined = False

    @property
    def idle(self) -> bool:
        return not self._watched

    def observe(
        self,
        feeder: BookFeeder,
        touched: Touched,
        arbitrages: Iterable[tuple[LineState, Arbitrage | None]],
        now: float,
    ) -> None:
        self._now = now
        if self._baselined and self._watched.isdisjoint(touched.event_ids()):
            return  # nothing moved on a watched event (an arbitrage found is on a line touched)
        book = feeder.book
        found: list[Alert] = []
        for event_id in touched.events & self._watched:
            found += self._event_alerts(book, event_id)
        if self._baselined:
            rules = [
                rule
                for event_id, market in touched.markets()
                for rule in self._by_market.get((event_id, market), ())
            ]
        else:  # the first record: every rule takes its baseline
            rules, self._baselined = list(self.rules.prices), True
        for rule in rules:
            line = feeder.lines.state((rule.event_id, rule.market, rule.line))
            # The line's best prices are kept as its quotes move (`best_index`); lay sides are
            # not among them.
            best = best_prices(line.quotes, (rule.side,)) if is_lay(rule.side) else line.best
            price, bookmaker = best.get(rule.side, (None, ""))
            alert = self.rules.observe_price(rule, price, bookmaker, title(book, rule.event_id))
            if alert is not None:
                found.append(alert)
        found += self._arbitrage_alerts(book, arbitrages, now)
        for alert in found:
            if self._throttle.admit(alert):
                self.firings.append(AlertFiring(now, alert, title(book, alert.event_id)))

    def _arbitrage_alerts(
        self,
        book: OddsBook,
        arbitrages: Iterable[tuple[LineState, Arbitrage | None]],
        now: float,
    ) -> list[Alert]:
        changed: set[int] = set()
        for state, arb in arbitrages:
            event_id, market, line = state.key
            if event_id not in self._arb_rules:
                continue
            held = self._arbs.setdefault(event_id, {})
            if arb is None:
                held.pop((market, line), None)
            else:
                legs = tuple((leg.side, leg.price, leg.bookmaker) for leg in arb.legs)
                held[(market, line)] = (arb.profit_pct, legs)
            changed.add(event_id)
        alerts = []
        for event_id in sorted(changed):
            after = MatchState(
                event_id, title(book, event_id), now, arbitrages=dict(self._arbs[event_id])
            )
            before, self._arb_seen[event_id] = self._arb_seen.get(event_id), after
            firings = [f for rule in self._arb_rules[event_id] for f in fire(rule, before, after)]
            alerts += [Alert.of(firing) for firing in self._cooldown.admit(firings)]
        return alerts

    def _event_alerts(self, book: OddsBook, event_id: int) -> list[Alert]:
        state = book.event(event_id)
        if state is None or not state.status:
            return []
        score = None if state.scores_stale else (state.scores.home, state.scores.away)
        sport = state.header.sport.slug if state.header is not None else ""
        return self.rules.observe_event(
            event_id, title(book, event_id), state.status, score, scoring_word(sport)
        )


def title(book: OddsBook, event_id: int) -> str:
    state = book.event(event_id)
    if state is None or state.header is None:
        return f"event {event_id}"
    return f"{state.header.home} v {state.header.away}"

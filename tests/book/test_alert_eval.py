"""The pure alert evaluation (issue 21): one firing per crossing, naming the event; a cool-down
per rule; half-time, full-time, red card and steam rules over states, without the app."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from oddstui.book.alert_eval import Cooldown, advance_trails, fire, steam_move
from oddstui.book.alert_rules import (
    ArbitrageRule,
    MatchRule,
    MatchState,
    PriceKey,
    PriceRule,
    SteamRule,
)

TITLE = "Arsenal v Chelsea"
HOME_ML: PriceKey = ("ML", None, None, "home", "Pinnacle")


def state(at: float, **fields: object) -> MatchState:
    return MatchState(7, TITLE, at, **fields)  # type: ignore[arg-type]


def run(rule: object, states: list[MatchState]) -> list:
    firings = []
    for before, after in zip([None, *states], states, strict=False):
        firings += fire(rule, before, after)  # type: ignore[arg-type]
    return firings


@given(st.lists(st.integers(150, 250).map(lambda x: x / 100), min_size=1, max_size=30))
def test_a_price_rule_fires_once_per_crossing(prices: list[float]) -> None:
    rule = PriceRule(7, "ML", "home", 2.0)
    states = [state(i, prices={HOME_ML: p}) for i, p in enumerate(prices)]
    crossings = sum(1 for a, b in zip(prices, prices[1:], strict=False) if a < 2.0 <= b)
    firings = run(rule, states)
    assert len(firings) == crossings
    assert all(f.message.startswith(f"{TITLE}: ") and f.event == TITLE for f in firings)


def test_the_same_arbitrage_fires_once_until_it_goes_and_comes_back() -> None:
    rule = ArbitrageRule(7, 1.0)
    legs = (("home", 2.2, "A"), ("away", 2.1, "B"))
    arb = {("ML", (None, None)): (3.0, legs)}
    moved = {("ML", (None, None)): (2.5, legs)}
    states = [state(0), state(0.2, arbitrages=arb), state(0.5, arbitrages=moved)]
    states += [state(0.9, arbitrages=arb), state(1.2), state(40.0, arbitrages=arb)]
    firings = run(rule, states)
    assert [f.at for f in firings] == [0.2, 40.0]
    assert firings[0].message == f"{TITLE}: 3.00% ML: home 2.20 A, away 2.10 B"


def test_a_cool_down_keeps_a_rule_quiet_whatever_crosses() -> None:
    rule = ArbitrageRule(7, 1.0)
    legs = (("home", 2.2, "A"), ("away", 2.1, "B"))
    # An arbitrage that comes and goes every second for 100 s.
    arb = {("ML", (None, None)): (3.0, legs)}
    states = [state(t / 2, arbitrages=arb if t % 2 else {}) for t in range(200)]
    firings = run(rule, states)
    assert len(firings) == 100  # a crossing every second: each one fires...
    admitted = Cooldown(30.0).admit(firings)
    assert [f.at for f in admitted] == [0.5, 30.5, 60.5, 90.5]  # ...but once per 30 s


def test_half_time_full_time_and_a_red_card_fire_once_each() -> None:
    rules = [MatchRule(7, moment) for moment in ("halftime", "fulltime", "redcard")]
    states = [
        state(0, status="live", score=(0, 0), periods={"p1": (0, 0)}, red_cards=(0, 0)),
        state(1, status="live", score=(1, 0), periods={"p1": (1, 0)}, red_cards=(0, 1)),
        state(2, status="live", score=(1, 0), halftime=True, red_cards=(0, 1)),
        state(3, status="live", score=(1, 0), halftime=True, red_cards=(0, 1)),
        state(4, status="live", score=(1, 0), periods={"p2": (0, 0)}, red_cards=(0, 1)),
        state(5, status="live", score=(2, 0), periods={"ft": (2, 0)}, red_cards=(0, 1)),
        state(6, status="settled", score=(2, 0), periods={"ft": (2, 0)}, red_cards=(0, 1)),
    ]
    fired = {rule.moment: run(rule, states) for rule in rules}
    assert [f.at for f in fired["halftime"]] == [2]
    assert [f.message for f in fired["halftime"]] == [f"{TITLE}: Half-time 1–0"]
    assert [f.at for f in fired["fulltime"]] == [5]
    assert [f.message for f in fired["fulltime"]] == [f"{TITLE}: Full-time 2–0"]
    assert [f.at for f in fired["redcard"]] == [1]
    assert [f.message for f in fired["redcard"]] == [f"{TITLE}: Red card (away) 1–0"]


def test_unknown_red_cards_never_fire() -> None:
    states = [state(0), state(1, red_cards=(0, 1)), state(2)]
    assert run(MatchRule(7, "redcard"), states) == []


def test_a_steam_move_at_a_chosen_book_fires_once() -> None:
    rule = SteamRule(7, 5.0, 60.0, ("pinnacle",))
    other: PriceKey = ("ML", None, None, "home", "Bet365")
    ticks = [(0, 2.00), (20, 1.95), (40, 1.88), (50, 1.85), (70, 1.84), (200, 1.84)]
    trails: dict = {}
    states = []
    for at, price in ticks:
        trails = advance_trails(trails, {HOME_ML: price, other: price}, at, 120.0)
        states.append(state(at, trails=trails))
    firings = run(rule, states)
    assert len(firings) == 1  # Bet365 moved the same, but it is not a chosen book
    assert firings[0].at == 40 and firings[0].value is not None and firings[0].value < -5
    assert firings[0].message == (f"{TITLE}: steam ML home at Pinnacle 2.00 → 1.88 (-6.0% in 60s)")


def test_a_slow_drift_is_no_steam() -> None:
    trails: dict = {}
    states = []
    for minute, price in enumerate([2.0, 1.96, 1.92, 1.88, 1.84, 1.80]):
        trails = advance_trails(trails, {HOME_ML: price}, minute * 60.0, 120.0)
        states.append(state(minute * 60.0, trails=trails))
    assert run(SteamRule(7, 5.0, 60.0), states) == []
    # The price the window starts from is kept however long it held.
    assert abs(steam_move(((0.0, 2.0), (1000.0, 1.8)), 1000.0, 60.0) + 10.0) < 1e-9


def test_first_sight_and_other_events_fire_nothing() -> None:
    rule = PriceRule(7, "ML", "home", 2.0)
    assert fire(rule, None, state(0, prices={HOME_ML: 2.5})) == []
    elsewhere = MatchState(8, "Other", 1, prices={HOME_ML: 2.5})
    assert fire(rule, MatchState(8, "Other", 0), elsewhere) == []


def test_a_price_first_seen_already_holding_is_no_crossing() -> None:
    # `ML home >= 1.01` made while the best is 3.53 (or before the line is priced at all).
    rule = PriceRule(7, "ML", "home", 1.01)
    unpriced, priced = state(0), state(1, prices={HOME_ML: 3.53})
    assert fire(rule, unpriced, priced) == []
    assert run(rule, [priced, state(2, prices={HOME_ML: 3.6})]) == []


def _steam_states(ticks: list[tuple[float, float]], **fields: object) -> list[MatchState]:
    trails: dict = {}
    states = []
    for at, price in ticks:
        trails = advance_trails(trails, {HOME_ML: price}, at, 120.0)
        states.append(state(at, trails=trails, **fields))
    return states


def test_a_lengthening_price_is_no_steam() -> None:
    """Issue 32: late-match drift 16.785 -> 18.211 (+8.5 %) fired a 5 % steam rule."""
    states = _steam_states([(0, 16.785), (30, 18.211), (60, 19.5)])
    assert run(SteamRule(7, 5.0, 60.0), states) == []
    assert steam_move(((0.0, 16.785), (30.0, 18.211)), 30.0, 60.0) == 0.0


def test_in_play_the_sports_floor_keeps_ordinary_decay_quiet() -> None:
    """A 10 % shortening in a minute fires a 5 % rule before the match, not in play in football
    (floor 15 %: the world's football shortens up to 10.5 % a minute between goals); a 20 %
    one fires in play too, but not in basketball (floor 40 %), and esports has no in-play steam."""
    rule = SteamRule(7, 5.0, 60.0)
    decay = [(0, 2.00), (30, 1.80)]  # -10 %
    assert len(run(rule, _steam_states(decay, status="pending", sport="football"))) == 1
    assert run(rule, _steam_states(decay, status="live", sport="football")) == []
    money = [(0, 2.00), (30, 1.60)]  # -20 %
    fired = run(rule, _steam_states(money, status="live", sport="football"))
    assert len(fired) == 1 and fired[0].value is not None and fired[0].value < -19.9
    assert run(rule, _steam_states(money, status="live", sport="basketball")) == []
    crash = [(0, 9.7), (30, 1.1)]  # -89 %
    assert run(rule, _steam_states(crash, status="live", sport="esports")) == []

"""The world over time, stepped with a frozen real clock so every run is the same."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import pytest

from oddstui.service.world import World
from oddstui.service.world.journal import JournalEntry
from oddstui.service.world.model import CANCELLED, LIVE, PENDING, SETTLED, Event

START = 1_800_000_000.0
ALLOWED = {(None, PENDING), (None, LIVE), (PENDING, LIVE), (LIVE, SETTLED), (PENDING, CANCELLED)}


class Recorder:
    def __init__(self, world: World) -> None:
        self.world = world
        self.entries: list = []
        self.steps: list[list] = []
        self.scores: list[tuple[int, tuple]] = []
        self.statuses: list[tuple[int, str]] = []
        self.mismatches: list[str] = []

    def on_odds(self, entries) -> None:
        self.entries.extend(entries)
        self.steps.append(list(entries))
        if len(self.steps) % 3:
            return
        # The contract: when listeners run, the state is what the latest entries say.
        for entry in entries:
            event = self.world.events[entry.event_id]
            if entry.type == "deleted":
                if event.status not in (SETTLED, CANCELLED):
                    self.mismatches.append(f"{entry} but the event is {event.status}")
                continue
            markets = self.world.markets_wire(event, entry.bookie)
            if entry.type in ("created", "updated") and not markets:
                self.mismatches.append(f"{entry} has no markets")
            if entry.type == "no_markets" and markets:
                self.mismatches.append(f"{entry} has markets")

    def on_score(self, event: Event) -> None:
        self.scores.append((event.id, (event.scores.home, event.scores.away)))

    def on_status(self, event: Event) -> None:
        self.statuses.append((event.id, event.status))


class Exploding:
    """Raises from every callback, the first 30 times each (enough to prove the point without
    filling the log)."""

    calls = Counter()

    def _boom(self, kind: str) -> None:
        Exploding.calls[kind] += 1
        if Exploding.calls[kind] <= 30:
            raise RuntimeError("listener bug")

    def on_odds(self, entries) -> None:
        self._boom("odds")

    def on_score(self, event) -> None:
        self._boom("score")

    def on_status(self, event) -> None:
        self._boom("status")


def make(speed: float = 60.0, updates: float = 50.0, seed: int = 1) -> World:
    return World(
        seed=seed, start=START, speed=speed, updates_per_second=updates, real_clock=lambda: 0.0
    )


@pytest.fixture(scope="module")
def day():
    """Four simulated hours at speed 60, in two-minute steps, with a recorder and a listener
    that raises."""
    world = make()
    Exploding.calls = Counter()
    world.subscribe(Exploding())
    rec = Recorder(world)
    world.subscribe(rec)
    first_statuses = {e.id: e.status for e in world.events.values()}
    live_sports = []
    event_count = len(world.events)
    for i in range(120):
        world.advance(120.0)
        if i % 10 == 0:
            live_sports.append(len({e.sport.slug for e in world.live_events()}))
    return world, rec, first_statuses, live_sports, event_count


def test_a_broken_listener_does_not_stop_the_world(day):
    world, rec, *_ = day
    assert min(Exploding.calls.values()) > 30
    assert rec.entries and rec.statuses and rec.scores


def test_journal_seq_strictly_increases_and_one_entry_per_pair_per_step(day):
    _, rec, *_ = day
    seqs = [e.seq for e in rec.entries]
    assert seqs == sorted(seqs) and len(seqs) == len(set(seqs))
    assert all(b - a == 1 for a, b in zip(seqs, seqs[1:], strict=False))
    assert rec.steps
    for entries in rec.steps:
        pairs = [(e.event_id, e.bookie) for e in entries]
        assert len(pairs) == len(set(pairs))
        assert len({e.timestamp for e in entries}) == 1
    assert {e.type for e in rec.entries} == {"created", "updated", "deleted", "no_markets"}


def test_state_matches_the_latest_entries(day):
    _, rec, *_ = day
    assert rec.mismatches == []


def test_one_status_message_per_transition(day):
    world, rec, first, *_ = day
    previous: dict[int, str | None] = {i: s for i, s in first.items()}
    transitions = Counter()
    assert rec.statuses
    for event_id, status in rec.statuses:
        before = previous.get(event_id)
        assert (before, status) in ALLOWED, (event_id, before, status)
        transitions[(before, status)] += 1
        previous[event_id] = status
    assert world.events
    for event_id, event in world.events.items():
        assert previous[event_id] == event.status
    assert transitions[(PENDING, LIVE)] > 100
    assert transitions[(LIVE, SETTLED)] > 100
    assert transitions[(None, PENDING)] > 20  # new events keep coming


def test_new_events_are_added_and_quoted(day):
    world, rec, _, _, count = day
    assert len(world.events) > count
    created = {e.event_id for e in rec.entries if e.type == "created"}
    assert created and all(world.events[i].id == i for i in created)
    assert max(world.events[i].start for i in created) > START + 4 * 3600 + 13 * 86400


def test_a_share_of_pending_events_is_called_off():
    world = make(speed=60.0)
    rec = Recorder(world)
    world.subscribe(rec)
    doomed = sorted(
        (meta.cancel_at, event_id)
        for event_id, meta in world._meta.items()
        if meta.cancel_at is not None and world.events[event_id].status == PENDING
    )
    assert 0.005 < len(doomed) / sum(e.status == PENDING for e in world.events.values()) < 0.05
    when, event_id = doomed[0]
    world.advance(when - world.now() + 1.0)
    event = world.events[event_id]
    assert event.status == CANCELLED
    assert rec.statuses.count((event_id, CANCELLED)) == 1
    deleted = {e.bookie for e in rec.entries if e.event_id == event_id and e.type == "deleted"}
    assert deleted == set(event.bookmakers)


def test_live_in_ten_sports_all_day(day):
    *_, live_sports, _ = day
    assert min(live_sports) >= 10, live_sports


def test_overtime_and_shootouts_happen(day):
    world, *_ = day
    settled_today = [e for e in world.events.values() if e.status == SETTLED and e.start > START]
    assert sum("ap" in e.scores.periods for e in settled_today) > 0
    assert sum("ot" in e.scores.periods and "ap" not in e.scores.periods for e in settled_today) > 0
    for event in settled_today:
        periods = event.scores.periods
        top = (event.scores.home, event.scores.away)
        if "ap" in periods:
            assert top == periods["ft"]
        elif "ot" in periods:
            assert top == periods["ot"]


def test_scores_only_change_while_live(day):
    world, rec, *_ = day
    by_event = defaultdict(list)
    for event_id, score in rec.scores:
        by_event[event_id].append(score)
    assert len(by_event) > 100
    for event_id in by_event:
        assert world.events[event_id].status in (LIVE, SETTLED)


def test_settled_events_keep_closing_prices_only(day):
    world, *_ = day
    event = next(e for e in world.events.values() if e.status == SETTLED and e.start > START)
    assert event.quotes == {}
    assert event.clock is None and "clock" not in event.to_wire()
    record = world.odds_record(event, event.bookmakers)
    assert record["status"] == "settled" and record["bookmakers"]
    assert world.movements(event.id, next(iter(record["bookmakers"])), "ML") is not None


def test_same_steps_same_world():
    runs = []
    for _ in range(2):
        world = make(speed=60.0, seed=5)
        rec = Recorder(world)
        world.subscribe(rec)
        for _ in range(40):
            world.advance(30.0)
        first = rec.entries[0].seq  # seqs start at the wall clock; their steps must agree
        runs.append(
            (
                [(e.seq - first, e.event_id, e.bookie, e.type) for e in rec.entries],
                rec.scores,
                rec.statuses,
            )
        )
    assert runs[0] == runs[1]


class HandClock:
    """Real time a test moves by hand, for a world stepped as `World.run()` steps it."""

    def __init__(self, **options: Any) -> None:
        self.now = 0.0
        self.world = World(seed=2, start=START, real_clock=lambda: self.now, **options)

    def steps(self, count: int, every: float = 0.05) -> list[JournalEntry]:
        """`count` steps `every` real seconds apart; the journal entries they wrote."""
        entries: list[JournalEntry] = []
        for _ in range(count):
            self.now += every
            entries += self.world.step()
        return entries


def test_entries_per_real_second_follow_updates_per_second():
    hand = HandClock(updates_per_second=400.0)
    hand.steps(20)
    first = hand.world.journal.seq
    hand.steps(100)
    rate = (hand.world.journal.seq - first) / 5.0
    assert 300 <= rate <= 500, rate


def test_a_busy_in_play_world_still_moves_pre_match_prices():
    # In-play work goes first, but a world whose live matches ask for more than the budget
    # must not leave every pre-match price standing still.
    hand = HandClock(speed=30.0, updates_per_second=400.0)
    by_status: Counter[str] = Counter(
        hand.world.events[entry.event_id].status
        for entry in hand.steps(300)
        if entry.type == "updated"
    )
    assert by_status[LIVE] > by_status[PENDING] >= 0.1 * sum(by_status.values()), by_status


def test_a_late_step_owes_at_most_a_quarter_second_of_updates():
    # A machine slower than the asked rate makes each step late; had a late step owed all the
    # updates of its gap, the next would be later still, and steps grew to seconds (the feed
    # and every request wait meanwhile).
    hand = HandClock(updates_per_second=400.0)
    hand.steps(20)
    updated = [e for e in hand.steps(1, every=10.0) if e.type == "updated"]
    assert 0 < len(updated) <= 400 * 0.25 * 1.2, len(updated)


def test_replay_window_through_the_world():
    hand = HandClock(replay_window=2.0)
    hand.steps(60)
    world = hand.world
    assert world.journal.replay_since(world.journal.seq) == []
    assert world.journal.replay_since(0) is None  # older than two seconds
    recent = world.journal.replay_since(world.journal.seq - 20)
    assert recent is not None and len(recent) <= 20


def test_odds_record_shape():
    world = make()
    for _ in range(30):
        world.advance(2.0)
    two_way = next(e for e in world.live_events() if not e.sport.has_draw)
    three_way = next(e for e in world.live_events() if e.sport.slug == "football")
    seen_na = False
    quoted = world.quoted_events()
    pending = [e for e in quoted if e.status == "pending"][:40]  # every book quotes before kick-off
    for event in (two_way, three_way, *quoted[:40], *pending):
        record = world.odds_record(event, event.bookmakers)
        assert set(record["urls"]) <= set(record["bookmakerIds"])
        seen_na = seen_na or "N/A" in record["urls"].values()
        if "Bet365" in record["bookmakers"]:
            assert record["bookmakerIds"]["Bet365_4"].endswith("-bot365")
        for bookie, markets in record["bookmakers"].items():
            precision = world.bookmakers[bookie].precision
            names = [m["name"] for m in markets]
            assert len(names) == len(set(names))
            for market in markets:
                assert market["updatedAt"].endswith("Z")
                hdps = [o["hdp"] for o in market["odds"] if "hdp" in o]
                assert hdps == sorted(hdps)
                for entry in market["odds"]:
                    prices = {k: v for k, v in entry.items() if k not in ("hdp", "label", "max")}
                    assert prices
                    for value in prices.values():
                        assert isinstance(value, str)
                        assert len(value.split(".")[1]) == precision
                        assert float(value) >= 1.01
                    if market["name"] == "ML":
                        assert isinstance(entry["max"], int)
                        assert ("draw" in entry) == event.sport.has_draw
                    if market["name"] in ("Totals", "Spread"):
                        assert isinstance(entry["hdp"], float)
            assert world.markets_wire(event, bookie) == markets
    assert seen_na


def test_history_windows_and_movements():
    world = make(speed=1.0)
    event = next(
        e
        for e in world.events.values()
        if e.status == PENDING and START + 3600 < e.start < START + 86400
    )
    bookie = event.bookmakers[0]
    window = world.line_window(event.id, bookie, "ML", now=START)
    assert window is not None
    assert window.opening[0] == world.open_ts(event.id) < START - 48 * 3600
    assert window.h12 is not None and window.h24 is not None and window.h48 is not None
    ticks = world.movements(event.id, bookie, "ML")
    assert ticks is not None and len(ticks) >= 3
    assert [t for t, _ in ticks] == sorted(t for t, _ in ticks)
    assert world.price_at(event.id, bookie, "ML", None, None, window.opening[0] - 1) is None
    assert world.movements(event.id, bookie, "No Such Market") is None
    # Recorded changes are appended to the line's history.
    for _ in range(60):
        world.advance(1.0)
    moved = [(e.event_id, e.bookie) for e in world.journal.entries() if e.type == "updated"]
    assert moved
    longest = 0
    for event_id, book in moved[:300]:
        for market in world.events[event_id].quotes.get(book, {}).values():
            for line in market.lines:
                history = world.movements(event_id, book, market.name, line.hdp, line.label)
                assert history is not None and history[-1][1] == line.prices
                longest = max(longest, len(history))
    assert longest > 3


def test_a_match_live_when_the_world_starts_opened_days_before():
    """Issue 32: its ML opening was the price of a few minutes before, not its first price."""
    world = make(speed=1.0)
    live = [e for e in world.events.values() if e.status == LIVE and e.bookmakers]
    assert live
    event = live[0]
    bookie = event.bookmakers[0]
    ticks = world.movements(event.id, bookie, "ML")
    assert ticks is not None
    assert ticks[0][0] == world.open_ts(event.id) < event.start  # opened before kick-off


def test_changed_since_lists_recent_pairs():
    world = make(speed=1.0, updates=100.0)
    for _ in range(20):
        world.advance(1.0)
    mark = world.now()
    for _ in range(10):
        world.advance(1.0)
    recent = world.changed_since(mark)
    assert recent and all(e.timestamp >= mark for e in recent)
    assert len({(e.event_id, e.bookie) for e in recent}) == len(recent)
    only = world.changed_since(mark, ["Pinnacle"])
    assert only and all(e.bookie == "Pinnacle" for e in only)


def test_far_off_quotes_put_away_come_back_identical():
    world = make(speed=60.0)
    for _ in range(5):
        world.advance(600.0)  # new events arrive at the horizon
    newest = max(world.events.values(), key=lambda e: e.id)
    assert newest.status == PENDING and newest.start > world.now() + 86400
    world.advance(1.0)
    assert newest.quotes == {}  # put away: nothing moved it since it opened
    record = world.odds_record(newest, newest.bookmakers)
    assert record["bookmakers"]
    world.advance(1.0)
    world.advance(1.0)
    assert newest.quotes == {}
    assert world.odds_record(newest, newest.bookmakers) == record

"""Events' lives: laid out from the schedule, published, kicked off, played, settled, forgotten.

The world's events at a time T are those of the schedule (a function of the seed alone) that are
published by T: settled when their match has ended by T, live when it kicked off before T (its
play so far is simulated at once, from the fixture's own seed), pending otherwise. Building the
world lays out first what the first requests need (the hours around T); the rest of the future
and the historical days follow in the background, a little per step (`_backfill`).
"""

from __future__ import annotations

import bisect
import functools
import heapq
import math
import time
from collections import deque

from oddstui.service.world.engines import make_engine
from oddstui.service.world.engines.base import Engine
from oddstui.service.world.model import CANCELLED, LIVE, PENDING, SETTLED, Clock, Event, Scores
from oddstui.service.world.prices import DECAY_EVERY, PriceMaking
from oddstui.service.world.schedule import DAY, HISTORY_DAYS, RECENT_PAST, Fixture, day_of
from oddstui.service.world.sports import SPORT_BY_SLUG, SportSpec
from oddstui.service.world.truth import LiveView, mix

FORGET_EVERY = 3600.0  # simulated seconds between sweeps of events past the history window
NEAR_BEFORE, NEAR_AFTER = 8 * 3600.0, 6 * 3600.0  # what building lays out first, around now
BACKFILL_CHUNK = 40  # fixtures laid out between two looks at the clock
LATE_PUBLISH = 600.0  # a fixture published this close to kick-off (after a jump) is skipped

Task = tuple[int, float, float]  # (day, lo, hi): lay out the day's fixtures starting in [lo, hi)


class Lifecycle(PriceMaking):
    _publish: list[tuple[float, int, Fixture]]  # heap of fixtures not yet published
    _generated_to: int  # the last day whose fixtures are laid out or queued
    _backlog: deque[Task]
    _backlog_fixtures: deque[Fixture]  # of the task being laid out
    _next_forget: float

    # -- laying out ---------------------------------------------------------------------------
    def _lay_out(self, now: float) -> None:
        """Lay out the hours around `now`; queue the rest of the 45 past days and the future."""
        self._publish = []
        self._backlog = deque()
        self._backlog_fixtures = deque()
        past = now - HISTORY_DAYS * DAY
        near_lo, near_hi = now - NEAR_BEFORE, now + NEAR_AFTER
        self._generated_to = day_of(now + self._scheduler.horizon)
        for day in range(day_of(near_lo), day_of(near_hi) + 1):
            self._lay_out_task((day, near_lo, near_hi), now)
        # Then the rest of the last two days (the default window of /events reaches a day
        # back), the days ahead, and the older history last.
        recent = now - 2 * DAY
        self._backlog.extend((d, recent, near_lo)
                             for d in range(day_of(near_lo), day_of(recent) - 1, -1))
        self._backlog.extend((d, near_hi, math.inf)
                             for d in range(day_of(near_hi), self._generated_to + 1))
        self._backlog.extend((d, past, recent)
                             for d in range(day_of(recent), day_of(past) - 1, -1))
        self._upcoming.sort()
        # What building touched is the starting state, not a change.
        self._changed.clear()
        self._created.clear()

    def _lay_out_task(self, task: Task, now: float) -> None:
        for fixture in self._task_fixtures(task, now):
            self._materialize(fixture, now)

    def _task_fixtures(self, task: Task, now: float) -> list[Fixture]:
        day, lo, hi = task
        # Settled long ago: only the share kept as history is laid out.
        old = min(hi, (day + 1) * DAY) <= now - RECENT_PAST
        keep = self._scheduler.kept_in_history if old else None
        return [f for f in self._scheduler.day(day, keep) if lo <= f.start < hi]

    def _backfill(self, budget: float) -> None:
        """Lay out queued days for about `budget` real seconds (math.inf: all of them), a few
        fixtures at a time so that no step takes long."""
        if not self._backlog and not self._backlog_fixtures:
            return
        deadline = time.perf_counter() + budget
        now = self._sim
        while time.perf_counter() < deadline:
            if not self._backlog_fixtures:
                if not self._backlog:
                    break
                self._backlog_fixtures.extend(self._task_fixtures(self._backlog.popleft(), now))
                continue
            for _ in range(min(BACKFILL_CHUNK, len(self._backlog_fixtures))):
                self._materialize(self._backlog_fixtures.popleft(), now)
        self._upcoming.sort()

    def lay_out_span(self, start: float, end: float) -> None:
        """Lay out at once the queued days with fixtures starting in [start, end], so that an
        answer about those days never finds them half built while the background goes on."""
        due = [task for task in self._backlog if _overlaps(task, start, end)]
        if not due and not self._backlog_fixtures:
            return  # the usual case once building is done: nothing to sort again
        now = self._sim
        while self._backlog_fixtures:  # the day being laid out: finish it first
            self._materialize(self._backlog_fixtures.popleft(), now)
        self._backlog = deque(t for t in self._backlog if not _overlaps(t, start, end))
        for task in due:
            self._lay_out_task(task, now)
        self._upcoming.sort()

    def event_laid_out(self, event_id: int) -> Event | None:
        """The event with this id, its day laid out at once if the background has not reached
        it yet (an id from a listing of another process, or one asked for early)."""
        event = self.events.get(event_id)
        if event is None and not self.laid_out:
            day = self._scheduler.day_of_id(event_id)
            self.lay_out_span(day * DAY, (day + 1) * DAY)
            event = self.events.get(event_id)
        return event

    @property
    def laid_out(self) -> bool:
        """Whether every day of the world's span is laid out (building is done)."""
        return not self._backlog and not self._backlog_fixtures

    def _materialize(self, fixture: Fixture, now: float) -> Event | None:
        """The fixture's event as it stands at `now`; None when it is not listed (not yet
        published: queued for then; or past the history kept)."""
        if fixture.id in self.events:
            return None
        if fixture.publish_ts > now:
            heapq.heappush(self._publish, (fixture.publish_ts, fixture.id, fixture))
            return None
        spec = SPORT_BY_SLUG[fixture.sport]
        ended_by = fixture.start + self._scheduler.durations[fixture.sport] * 1.2
        if fixture.start < now - HISTORY_DAYS * DAY:
            return None
        if ended_by < now - RECENT_PAST and not self._scheduler.kept_in_history(fixture.id):
            return None
        event = self._make_event(fixture)
        if fixture.cancel_at is not None and fixture.cancel_at <= now:
            event.status = CANCELLED
            return event
        if ended_by < now:
            event.final = functools.partial(_final_scores, spec, mix(self.seed, event.id),
                                            self._rating(event), self._meta[event.id].knockout)
            event.status = SETTLED
            return event
        if fixture.start <= now:
            engine = self._start_engine(event)
            engine.advance(now - fixture.start)
            self._refresh_view(event, engine)
            if engine.finished:
                event.status = SETTLED
                del self._engines[event.id]
                self._quoter.views.pop(event.id, None)
                return event
            event.status = LIVE
            event.clock = engine.clock
            self._live[event.id] = event
            self._choose_inplay(event)
            return event
        self._upcoming.append((event.start, event.id))
        if fixture.cancel_at is not None:
            heapq.heappush(self._cancels, (fixture.cancel_at, event.id))
        return event

    def _start_engine(self, event: Event) -> Engine:
        spec = SPORT_BY_SLUG[event.sport.slug]
        engine = make_engine(spec, mix(self.seed, event.id), event.scores, self._rating(event),
                             self._meta[event.id].knockout)
        self._engines[event.id] = engine
        self._quoter.views[event.id] = LiveView(spec, Scores(), live=True)
        self._refresh_view(event, engine)
        return engine

    # -- as time passes -------------------------------------------------------------------------
    def _add_new_events(self, now: float) -> None:
        """Lay out the days coming within the horizon, and publish what is due."""
        while self._generated_to < day_of(now + self._scheduler.horizon):
            self._generated_to += 1
            self._backlog.append((self._generated_to, -math.inf, math.inf))
        while self._publish and self._publish[0][0] <= now:
            _, _, fixture = heapq.heappop(self._publish)
            if fixture.start <= now + LATE_PUBLISH:
                continue
            event = self._materialize(fixture, now)
            if event is None or event.status != PENDING:
                continue
            bisect.insort(self._upcoming, self._upcoming.pop())  # _materialize appended it
            self._ensure_quotes(event)
            self._transition(event)
            for name in event.bookmakers:
                self._created.add((event.id, name))
                self._touch(event.id, name)

    def _forget_past(self, now: float) -> None:
        """Drop finished events that started before the history window: new ones keep coming,
        so without this a long run at a high --speed would grow without bound."""
        if now < self._next_forget:
            return
        self._next_forget = now + FORGET_EVERY
        horizon = now - HISTORY_DAYS * 86400.0
        old = [e.id for e in self.events.values()
               if e.start < horizon and e.status in (SETTLED, CANCELLED)]
        for event_id in old:
            del self.events[event_id]
            self._meta.pop(event_id, None)
            self._quoter.truths.pop(event_id, None)
            self._quoter.drop_event(event_id)
            self._cold.pop(event_id, None)
            self._copies.forget(event_id)

    def _cancel_due(self, now: float) -> None:
        while self._cancels and self._cancels[0][0] <= now:
            _, event_id = heapq.heappop(self._cancels)
            event = self.events[event_id]
            if event.status != PENDING or event_id in self._transition_ids:
                continue
            event.status = CANCELLED
            self._transition(event)
            self._close_books(event)

    def _kickoffs(self, now: float) -> set[int]:
        kicked: set[int] = set()
        upcoming = self._upcoming
        due = 0
        while due < len(upcoming) and upcoming[due][0] <= now:
            due += 1
        ready = upcoming[:due]
        del upcoming[:due]
        for index, (_start, event_id) in enumerate(ready):
            event = self.events[event_id]
            if event.status != PENDING:
                continue
            if event_id in self._transition_ids:  # created this very step: kick off next step
                upcoming[:0] = ready[index:]
                break
            engine = self._start_engine(event)
            engine.advance(now - event.start)
            if engine.finished:  # played out within this step (a jump in time): one transition
                del self._engines[event_id]
                self._quoter.views.pop(event_id, None)
                event.status = SETTLED
                self._transition(event)
                self._close_books(event)
                self._quoter.drop_event(event_id)
                self._quoter.truths.pop(event_id, None)
                event.quotes.clear()
                continue
            self._ensure_quotes(event)
            self._quoter.truths[event_id].tier_cap = 3
            self._refresh_view(event, engine)
            event.status = LIVE
            event.clock = engine.clock
            self._live[event_id] = event
            self._transition(event)
            kicked.add(event_id)
            self._choose_inplay(event)
            self._reprice_all(event, now)
        return kicked

    def _play(self, now: float, dt: float, kicked: set[int]) -> None:
        # How often a live event can be repriced, so that its in-play books keep up within
        # the update budget.
        pairs = sum(len(books) for books in self._inplay.values())
        self._reprice_gap = max(0.5, pairs / self.updates_per_second) * self.speed
        for event_id, event in list(self._live.items()):
            engine = self._engines[event_id]
            if event_id in kicked:
                changed = False
            else:
                changed = engine.advance(dt)
            if changed:
                self._score_changed[event_id] = event
            if engine.finished and event_id not in kicked:
                self._settle(event)
                continue
            was, event.clock = event.clock, engine.clock
            if _clock_turned(was, event.clock):
                # A clock that stops or starts is told on the feed with the scores (ours).
                self._score_changed[event_id] = event
            # Prices follow the match in snapshots: at each score and every DECAY_EVERY
            # seconds, so that books differ by how late they follow, not by when they
            # happened to requote.
            if changed:
                self._after_score(event, now, engine)
            elif now >= self._next_decay.get(event_id, 0.0):
                self._next_decay[event_id] = now + max(DECAY_EVERY, self._reprice_gap)
                self._reprice_decay(event, now, engine)

    def end_match(self, event_id: int) -> bool:
        """End a match now, between steps: a live one is settled at its current score, a
        pending one cancelled; the next step tells the feed (status, then `deleted` per book).
        False when the event is not pending or live. For tests that need a match to end at a
        chosen moment; call it on the world's own thread (the service's event loop)."""
        event = self.events.get(event_id)
        if event is None or event_id in self._transition_ids:
            return False
        if event.status == LIVE and event_id in self._engines:
            self._settle(event)
            return True
        if event.status == PENDING:
            event.status = CANCELLED
            self._transition(event)
            self._close_books(event)
            return True
        return False

    def _settle(self, event: Event) -> None:
        event.status = SETTLED
        event.settled_at = self._sim  # /settlements: awaiting_result for a while (CONFIRM_AFTER)
        event.clock = None
        self._transition(event)
        del self._live[event.id]
        del self._engines[event.id]
        self._next_decay.pop(event.id, None)
        self._last_bump.pop(event.id, None)
        self._inplay.pop(event.id, None)
        self._close_books(event)
        self.history.drop_event(event.id)
        self._quoter.drop_event(event.id)
        event.quotes.clear()


def _clock_turned(was: Clock | None, now: Clock | None) -> bool:
    """True when a live clock stopped, started or entered another period."""
    if was is None or now is None:
        return was is not now
    return was.running != now.running or was.period != now.period


_FINAL_SCORES: dict[tuple[str, int, float, bool], Scores] = {}


def _final_scores(spec: SportSpec, seed: int, rating: float, knockout: bool) -> Scores:
    """A played-out result, remembered per process (worlds built from one seed share them)."""
    key = (spec.slug, seed, rating, knockout)
    scores = _FINAL_SCORES.get(key)
    if scores is None:
        engine = make_engine(spec, seed, Scores(), rating, knockout)
        engine.play_out()
        scores = engine.scores
        if len(_FINAL_SCORES) > 50_000:
            _FINAL_SCORES.clear()
        _FINAL_SCORES[key] = scores
    return Scores(scores.home, scores.away, dict(scores.periods), scores.red_cards)


def _overlaps(task: Task, start: float, end: float) -> bool:
    """Whether a queued task holds fixtures that may start in [start, end]."""
    day, lo, hi = task
    return max(lo, day * DAY) <= end and min(hi, (day + 1) * DAY) > start

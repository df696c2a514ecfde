"""Price-making: books opening and following the true prices, in play and before.

Moves of the true prices (a random walk, a score, time passing in play) are followed by each
book after its latency: sharp books at once, soft books later, which is where stale quotes, value
bets and brief arbitrages come from. The follow-up work is paced by the update budget
(`updates_per_second`).
"""

from __future__ import annotations

import heapq
import math
from typing import Any

from oddstui.service.world.bookmaker_truth import (
    IN_PLAY_BASE,
    IN_PLAY_SHARE,
    IN_PLAY_SPREAD,
    PRE_MATCH_FOLLOW,
    copy_delay,
)
from oddstui.service.world.deadlines import FollowDeadlines
from oddstui.service.world.engines.base import Engine
from oddstui.service.world.markets import MARKETS_BY_SPORT
from oddstui.service.world.model import LIVE, PENDING, Bookmaker, Event, Scores
from oddstui.service.world.sight import BookSight
from oddstui.service.world.sports import SPORT_BY_SLUG
from oddstui.service.world.truth import Line3, mix, true_lines
from oddstui.service.world.warming import Warming

DECAY_EVERY = 60.0  # simulated seconds between time-decay reprices of a live event
DECAY_MOVE = 0.01  # a relative change of a true probability that a time-decay reprice announces
DEMAND_PER_SPEED = 25.0  # in-play follow-ups a live world wants per second, per unit of speed
MAX_MARKETS_PER_REQUOTE = 5
LOW_SCORING = 15.0  # sports with fewer expected points suspend their books after a score
PRE_MATCH_DRIFT, IN_PLAY_DRIFT = 0.05, 0.04  # sd of one move of a true line, in sd of margin
MATERIAL_SWING = 0.08  # a relative change of a core market's price that most books suspend for
LATE_IN_MATCH = 0.8  # share of the match played after which every score is material
DIRTY_BACKLOG_SECONDS = 2.0  # keep about this many seconds of follow-up work queued
PRE_MATCH_SHARE = 0.25  # of a step's update budget, kept from in-play follow-ups


class PriceMaking(FollowDeadlines, BookSight, Warming):
    def _refresh_view(self, event: Event, engine: Engine) -> bool:
        """Bring the prices' view of the match up to date; True when its scores changed.

        The view keeps its own copy of the scores: the true prices move only here, where the
        caller bumps the markets they move, never silently under a book that has not followed.
        """
        view = self._quoter.views[event.id]
        scored = view.scores != event.scores
        if scored:
            scores = event.scores
            view.scores = Scores(scores.home, scores.away, dict(scores.periods), scores.red_cards)
        view.progress = engine.progress
        view.in_overtime = engine.in_overtime or "ot" in event.scores.periods \
            or "ap" in event.scores.periods
        view.set_index = getattr(engine, "set_index", 1)
        return scored

    def _after_score(self, event: Event, now: float, engine: Engine) -> None:
        spec = SPORT_BY_SLUG[event.sport.slug]
        truth = self._quoter.truths.get(event.id)
        if truth is None:  # not opened yet; it will open at the current score
            return
        goal = spec.engine == "timed" and spec.total < LOW_SCORING
        last = self._last_bump.get(event.id, -math.inf)
        if not goal and now - last < self._reprice_gap:
            # Points come faster than the update budget can follow: reprice a little later.
            due = last + self._reprice_gap
            if self._next_decay.get(event.id, math.inf) > due:
                self._next_decay[event.id] = due
            return
        self._last_bump[event.id] = now
        before = self._core_probabilities(event)
        self._refresh_view(event, engine)
        truth.bump(None, [m.name for m in MARKETS_BY_SPORT[event.sport.slug]])
        self._quoter.keep(event)
        after = self._core_probabilities(event)
        swing = _swing(before, after)
        # Books suspend after a goal, and after any point that swings the match (a set won,
        # any score late on): a book that kept quoting would offer a huge edge until it caught
        # up. Those that do not suspend follow after their latency: the short-lived big edges.
        material = swing >= MATERIAL_SWING or engine.progress >= LATE_IN_MATCH
        suspend_share = 0.9 if material else 0.5 if goal else 0.0
        quoting = self._quoting(event)
        for name in quoting:
            book = self.bookmakers[name]
            if book.sister_of is not None:  # it suspends with its parent and copies it
                self._follow(event.id, book, now)
                continue
            if self._budget >= 2 and not book.sharp and self.rng.random() < suspend_share:
                delay = book.latency * self.rng.uniform(0.5, 1.5)
                self._suspend(event.id, name, now + delay + 5.0)
                for sister in self._catalog.sisters.get(name, ()):
                    if sister in quoting:  # back when it copies its parent's return
                        self._suspend(event.id, sister, now + delay + 5.0 + copy_delay(
                            self.bookmakers[sister], event.id in self._live))
            else:
                self._follow(event.id, book, now)

    def _suspend(self, event_id: int, name: str, until: float) -> None:
        self._suspended[(event_id, name)] = until
        self._wire.pop((event_id, name), None)
        self._touch(event_id, name)
        self._budget -= 2  # the suspension and the return

    def _core_probabilities(self, event: Event) -> dict[tuple[str, float | None, str | None],
                                                         tuple[float, ...]]:
        """The true probabilities of every line of the core markets, by (market, hdp, label)."""
        out = {}
        for mdef in MARKETS_BY_SPORT[event.sport.slug]:
            if mdef.tier <= 1:
                for hdp, label, probs in self._quoter.lines_for(event, mdef, 0):
                    out[(mdef.name, hdp, label)] = probs
        return out

    def _reprice_decay(self, event: Event, now: float, engine: Engine) -> None:
        """Time passing in play: the core markets move, and every other market whose true
        prices the match's progress has moved by more than DECAY_MOVE (a period nearing its
        end, a count of corners): none moves unannounced under a book that has not followed.
        Points the budget could not follow one by one move every market at once."""
        truth = self._quoter.truths.get(event.id)
        if truth is None:
            self._refresh_view(event, engine)
            return
        defs = [m for m in MARKETS_BY_SPORT[event.sport.slug] if m.tier <= truth.tier_cap]
        before = {m.name: self._quoter.lines_for(event, m, 0) for m in defs if m.tier > 1}
        if self._refresh_view(event, engine):
            self._reprice_all(event, now)
            return
        view = self._quoter.view(event)
        moved = [m.name for m in defs
                 if m.tier <= 1 or _moved(before[m.name], true_lines(m, view, truth, 0))]
        self._last_bump[event.id] = now
        truth.bump(moved, [])
        self._quoter.keep(event)
        for name in self._quoting(event):
            self._follow(event.id, self.bookmakers[name], now)

    def _reprice_all(self, event: Event, now: float, core_only: bool = False) -> None:
        truth = self._quoter.truths.get(event.id)
        if truth is None:
            return
        self._last_bump[event.id] = now
        truth.bump(None, [m.name for m in MARKETS_BY_SPORT[event.sport.slug]
                          if not core_only or m.tier <= 1])
        self._quoter.keep(event)
        for name in self._quoting(event):
            self._follow(event.id, self.bookmakers[name], now)

    def _follow(self, event_id: int, book: Bookmaker, now: float) -> None:
        """Schedule a book to follow a move (sharp ones at once; a sister copies its parent
        instead). Every book takes down what the move leaves over the bound, and what it has
        not followed in time (world/deadlines.py)."""
        if book.sister_of is None:
            if event_id in self._live:
                # In play everyone is quicker (and in-play work goes first, see _follow_ups).
                delay = 0.0 if book.sharp else (IN_PLAY_BASE + IN_PLAY_SHARE * book.latency) \
                    * self.rng.uniform(*IN_PLAY_SPREAD)
            else:
                delay = 0.0 if book.sharp else book.latency * self.rng.uniform(*PRE_MATCH_FOLLOW)
            truth = self._quoter.truths.get(event_id)
            if truth is not None:
                self._will_see(event_id, book.name, truth.version, now + delay, truth.moved)
            self._schedule(event_id, book.name, now + delay)
        self._follow_deadline(event_id, book, now)
        self._withdraw_overpriced(self.events[event_id], book)

    def _choose_inplay(self, event: Event) -> None:
        """Fewer books quote in play: sharp, exchange and big books mostly, others rarely.
        The rest show no markets until the event ends."""
        # A budget that cannot follow a fast world keeps fewer books in play, not all stale.
        capacity = min(1.0, self.updates_per_second / (DEMAND_PER_SPEED * self.speed))
        keep = []
        for name in event.bookmakers:
            book = self.bookmakers[name]
            share = 0.95 if book.tier >= 2 or book.margin < 0.03 else 0.3
            # A sister stays in play with its parent (it has nothing else to copy).
            drawn = self.bookmakers[book.sister_of].id if book.sister_of else book.id
            if book.sharp or mix(self.seed, event.id, drawn, 5) < share * capacity * 2**32:
                keep.append(name)
            else:
                if event.quotes.get(name):
                    self._touch(event.id, name)
                event.quotes[name] = {}
        self._inplay[event.id] = keep

    def _schedule(self, event_id: int, bookie: str, at: float) -> None:
        key = (event_id, bookie)
        current = self._due.get(key)
        if current is not None and current <= at:
            return
        self._due[key] = at
        if self.bookmakers[bookie].sister_of is not None:
            heap = self._due_copies  # a white label's copy is automatic: no queue before it
        else:
            heap = self._due_live if event_id in self._live else self._due_heap
        heapq.heappush(heap, (at, event_id, bookie))

    def _resume_books(self, now: float) -> None:
        if not self._suspended:
            return
        for key, at in list(self._suspended.items()):
            if at > now:
                continue
            del self._suspended[key]
            event = self.events[key[0]]
            if event.status not in (PENDING, LIVE):
                continue
            book = self.bookmakers[key[1]]
            self._sees_all(*key)  # it was repricing while suspended
            self._requote(event, book, now, MAX_MARKETS_PER_REQUOTE * 3)
            self._withdraw_behind(event, book.name)
            self._follow(event.id, book, now)
            self._touch(*key)

    def _follow_ups(self, now: float) -> None:
        """In-play work first, but never all of it: a busy in-play world would otherwise spend
        the whole budget following its live matches, leave none for new moves, and every
        pre-match price would stand still. What pre-match follow-ups leave goes to new moves."""
        self._follow_heap(self._due_copies, now)
        self._follow_heap(self._due_live, now, keep=self._budget * PRE_MATCH_SHARE)
        self._follow_heap(self._due_heap, now)

    def _follow_heap(self, heap: list[tuple[float, int, str]], now: float,
                     keep: float = 0.0) -> None:
        """Follow the due (event, book) pairs of `heap` while more than `keep` budget is left."""
        guard = int(self._budget * 3) + 10
        while heap and heap[0][0] <= now and self._budget >= 1 + keep and guard > 0:
            guard -= 1
            at, event_id, bookie = heapq.heappop(heap)
            key = (event_id, bookie)
            if self._due.get(key) != at:
                continue
            del self._due[key]
            if key in self._suspended:
                continue
            event = self.events[event_id]
            if event.status not in (PENDING, LIVE):
                self._sees_all(event_id, bookie)
                continue
            book = self.bookmakers[bookie]
            if self._requote(event, book, now, MAX_MARKETS_PER_REQUOTE):
                self._budget -= 1
            if book.sister_of is not None:
                if (later := self._copies.next_due(event_id, bookie)) is not None:
                    self._schedule(event_id, bookie, later)  # the parent's next change
                continue
            if self._quoter.dirty(event, book, 1, self._hidden(event_id, bookie, now)):
                self._schedule(event_id, bookie, at + 1.0)  # more markets still to follow
            later = self._next_sight(event_id, bookie)  # a later move, seen later
            if later is not None:
                self._schedule(event_id, bookie, later)

    def _requote(self, event: Event, book: Bookmaker, now: float, limit: int) -> bool:
        self._ensure_quotes(event)
        inplay = self._inplay.get(event.id)
        if inplay is not None and book.name not in inplay:
            return False
        if book.sister_of is not None:
            ready, snapshot = self._copies.take(event.id, book.name, now)
            parent = self.bookmakers[book.sister_of]
            if ready and self._quoter.copy_from(event, parent, book, now, snapshot):
                self._touch(event.id, book.name)
                return True
            return False
        dirty = self._quoter.dirty(event, book, limit, self._hidden(event.id, book.name, now))
        if not dirty:
            return False
        names = [mdef.name for mdef in dirty]
        as_of = self._seen_as_of(event.id, book.name, names)
        self._repriced(event.id, book.name, names)
        if self._quoter.requote(event, book, dirty, now, self.rng, as_of):
            self._touch(event.id, book.name)
            self._copied(event.id, book, now)
            return True
        return False

    def _copied(self, event_id: int, parent: Bookmaker, now: float) -> None:
        """The parent's sisters copy its change after their small delay."""
        sisters = self._catalog.sisters.get(parent.name)
        if not sisters:
            return
        event = self.events[event_id]
        dues = {n: now + copy_delay(self.bookmakers[n], event_id in self._live)
                for n in sisters if n in event.bookmakers}
        self._copies.changed(event_id, dues, event.quotes.get(parent.name) or {})
        for name, due in dues.items():
            self._schedule(event_id, name, due)

    def _active_pool(self, now: float) -> tuple[list[Event], list[float]]:
        if self._pool is not None and self._pool[0] == now:
            return self._pool[1], self._pool[2]
        events: list[Event] = []
        weights: list[float] = []
        total = 0.0
        for event in self._live.values():
            if event.id not in self._quoter.truths:
                continue
            total += 8.0
            events.append(event)
            weights.append(total)
        for start, event_id in self._upcoming[:120]:
            event = self.events[event_id]
            if event.status != PENDING or event_id not in self._quoter.truths:
                continue
            total += 2.0 if start - now < 6 * 3600 else 0.5
            events.append(event)
            weights.append(total)
        self._pool = (now, events, weights)
        return events, weights

    def _market_moves(self, now: float) -> None:
        """Random walks of the true prices, which books follow with their latency."""
        backlog = len(self._due)
        if backlog > self.updates_per_second * DIRTY_BACKLOG_SECONDS or self._budget < 1:
            return
        events, cum = self._active_pool(now)
        if not events:
            return
        moves = max(1, int(self._budget / 20))
        for event in self.rng.choices(events, cum_weights=cum, k=moves):
            truth = self._quoter.truths[event.id]
            defs = [m for m in MARKETS_BY_SPORT[event.sport.slug] if m.tier <= truth.tier_cap]
            picked = self.rng.sample(defs, min(len(defs), self.rng.randint(1, 3)))
            # In play, prices drift a little between scores; before the match, money moves
            # them more, and now and then a steamer moves a line a lot (slow books follow late).
            size = IN_PLAY_DRIFT if event.status == LIVE else PRE_MATCH_DRIFT
            if event.status != LIVE and self.rng.random() < 0.03:
                size *= 4
            for mdef in picked:
                truth.walk[mdef.name] = truth.walk.get(mdef.name, 0.0) * 0.98 \
                    + self.rng.gauss(0.0, size)
            truth.bump([m.name for m in picked], [])
            self._quoter.keep(event)
            for name in self._quoting(event):
                self._follow(event.id, self.bookmakers[name], now)

    def _jitter(self, now: float) -> None:
        """Fill the rest of the budget with books nudging one of their prices."""
        if self._budget < 1:
            return
        events, cum = self._active_pool(now)
        if not events:
            return
        count = int(self._budget)
        for event in self.rng.choices(events, cum_weights=cum, k=count):
            books = self._quoting(event)
            if not books:
                continue
            name = self.rng.choice(books)
            if (event.id, name) in self._suspended:
                continue
            book = self.bookmakers[name]
            quotes = event.quotes.get(name)
            if not quotes or book.sister_of is not None:
                continue
            market = self.rng.choice(list(quotes))
            if self._quoter.truths[event.id].changed_at.get(market, 0) > quotes[market].version:
                continue  # behind a move: a nudge does not follow it before the book's delay
            mdef = self._quoter.defs(event)[market]
            if self._quoter.requote(event, book, [mdef], now, self.rng):
                self._touch(event.id, name)
                self._copied(event.id, book, now)
                self._budget -= 1

    def _close_books(self, event: Event) -> None:
        for name in event.bookmakers:
            self._touch(event.id, name)
            self._due.pop((event.id, name), None)
            self._suspended.pop((event.id, name), None)
            self._sees_all(event.id, name)


def _moved(before: list[Line3], after: list[Line3]) -> bool:
    """Whether a market's true lines differ by more than DECAY_MOVE (or are other lines)."""
    if len(before) != len(after):
        return True
    for (h0, l0, p0), (h1, l1, p1) in zip(before, after, strict=True):
        if h0 != h1 or l0 != l1:
            return True
        for was, now in zip(p0, p1, strict=False):
            if now > 0.0 and abs(was / now - 1.0) > DECAY_MOVE:
                return True
    return False


def _swing(before: dict[Any, tuple[float, ...]], after: dict[Any, tuple[float, ...]]) -> float:
    """The largest relative change of a true price between two sets of lines: the edge a book
    that has not yet followed would be offering."""
    swing = 0.0
    for key, now in after.items():
        was = before.get(key)
        if was is None or len(was) != len(now):
            continue
        for p_was, p_now in zip(was, now, strict=True):
            if p_now > 0.0:
                swing = max(swing, abs(p_was / p_now - 1.0))
    return swing

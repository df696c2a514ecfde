"""The engine: price changes in, in time order; per-bookmaker measures out (`report`).

Incremental: each change touches its one line (and the books quoting it), and timed work (a
sharp move holding τ, a follow running out at the horizon) waits in a heap until the clock of
the changes passes it. So the same engine runs live on the desk and over a recording.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Hashable, Sequence
from typing import Any

from oddstui.book.fair_policy import FAIR_METHOD, FairPolicy
from oddstui.intel.behind import stale_by, taken_back, watched
from oddstui.intel.episodes import EndedEpisode, Episode, SteamEvent, ended, steam_events
from oddstui.intel.lines import LineState, Prices, SharpMove, back_sides, edge, sharp_position
from oddstui.intel.resolution import Resolution
from oddstui.intel.settings import IntelSettings
from oddstui.intel.tally import BookTally, SisterCounts, clusters_of

_CONFIRM, _EXPIRE, _EPISODE = 0, 1, 2


class IntelEngine:
    def __init__(self, settings: IntelSettings | None = None) -> None:
        self.settings = settings = settings or IntelSettings()
        self._sharp = frozenset(settings.sharp)
        self._fair = FairPolicy(settings.sharp, FAIR_METHOD)
        """The desk's one fair policy over this engine's sharp books: a price's edge."""
        self._half_theta = settings.theta / 2.0
        """The least move of a book's own that counts in an episode."""
        self.lines: dict[Hashable, LineState] = {}
        self.books: dict[str, BookTally] = {}
        self.sisters = SisterCounts(settings.sister_gap)
        self.episodes: list[EndedEpisode] = []
        """Ended episodes moved by k or more books by θ: steam if k clusters (`steam`)."""
        self.sharp_moves = 0
        self.changes = 0
        self.first: float | None = None
        self.now = -math.inf
        self.resolution = Resolution()
        self._heap: list[tuple[float, int, int, Any]] = []
        self._order = itertools.count()
        self.in_play: set[object] = set()
        """Events in play (the caller keeps it): their follows are also counted apart."""
        self._open: set[Hashable] = set()  # lines with a sharp move some book is behind

    # -- changes in ------------------------------------------------------------------------
    def observe(self, time: float, key: Hashable, book: str, prices: Prices | None) -> None:
        """`book`'s prices on line `key` are now `prices` (None or empty: it quotes none)."""
        self.observe_many(time, book, ((key, prices),))

    def observe_many(self, time: float, book: str,
                     changes: Sequence[tuple[Hashable, Prices | None]]) -> None:
        """`observe` of each (line, prices) in `changes`, all `book`'s at `time`, in order (one
        message): the clock and the book's tally are looked at once, not once a line. None:
        nothing at all happened (the clock stays, the book is not seen)."""
        if not changes:
            return
        if time > self.now:
            self.resolution.see(time)
            if self._heap and self._heap[0][0] <= time:
                self.advance(time)
            self.now = time
            if self.first is None:
                self.first = time
        tally = self.books.get(book)
        if tally is None:
            tally = self.books[book] = BookTally()
        now = self.now
        lines = self.lines
        margins = tally.margins
        sharp = book in self._sharp
        count = 0
        for key, prices in changes:
            count += 1
            line = lines.get(key)
            if line is None:
                if not prices:  # nothing held, nothing quoted (an ended event's withdrawals)
                    continue
                line = lines[key] = LineState(key)
            pos: float | None = None
            if prices:
                sides = line.sides
                if sides is None:
                    sides = line.sides = back_sides(prices)
                # The book's position (`lines`: the first side's margin-free probability, as
                # `book.fair`'s multiplicative method) and the line's overround, when every side
                # is quoted above 1; inline, as it runs for every change.
                total = first = 0.0
                for side in sides:
                    price = prices.get(side)
                    if price is None or price <= 1.0:
                        break
                    inverse = 1.0 / price
                    total += inverse
                    if not first:
                        first = inverse
                else:
                    pos = first / total
                    tenth = int((total - 1.0) * 1000.0)
                    margins[tenth] = margins.get(tenth, 0) + 1
            positions = line.positions
            before = positions.get(book)
            if pos is None:
                if before is not None:
                    del positions[book]
                line.prices.pop(book, None)
            else:
                if before is None:
                    tally.markets.add(key[:2] if isinstance(key, tuple) else key)
                positions[book] = pos
                line.prices[book] = prices  # type: ignore[assignment]
            if sharp:
                self._sharp_changed(line, book, now)
            if line.moves or line.candidate is not None:
                self._follows(line, book, pos, now)
            if pos is not None:
                if before is None:
                    line.anchors[book] = pos
                elif pos != before:
                    recent = line.recent[pos > before]
                    self.sisters.observe(recent, positions, book, now)
                    recent.append((now, book))
                    self._episode(line, book, pos, now)
            if not sharp and (line.fair is not None or line.ev_since):
                # Without a sharp quote on the line there is no edge, so only a stale line of
                # its (ended by that) needs judging.
                self._check_value(line, book, now)
        self.changes += count
        tally.updates += count

    def advance(self, time: float) -> None:
        """Carry out what was due by `time`: moves that held τ, follows past the horizon."""
        heap = self._heap
        while heap and heap[0][0] <= time:
            due, _, kind, item = heapq.heappop(heap)
            if kind == _CONFIRM:
                self._confirm(item, due)
            elif kind == _EXPIRE:
                self._expire(item)
            else:  # an episode's window has passed: it ends, if it is still the line's
                episode: Episode = item
                line = self.lines.get(episode.key)
                if line is not None and line.episode is episode:
                    line.episode = None
                    self._end_episode(line, episode)

    def event_ended(self, event_id: object, time: float | None = None) -> None:
        """The event finished or went away (at `time`): no book can follow on it any more, so
        its open follows are censored where they are, its stale lines and its episodes end,
        and its lines are forgotten (the desk's engine runs all day)."""
        if time is not None and time > self.now:
            self.advance(time)
            self.now = time
        now = self.now
        self.in_play.discard(event_id)
        for key in [k for k in self.lines if isinstance(k, tuple) and k[0] == event_id]:
            line = self.lines.pop(key)
            if line.candidate is not None:
                line.candidate.done = True  # it never held τ: not a move
                line.candidate = None
            for move in list(line.moves):
                self._censor(move, now, True)
            for book, since in line.ev_since.items():
                self.books[book].stale.append((now - since, True))
            line.ev_since = {}
            if isinstance(line.episode, Episode):
                self._end_episode(line, line.episode)
                line.episode = None
            self._open.discard(key)

    # -- sharp moves and their follows --------------------------------------------------
    def _sharp_changed(self, line: LineState, book: str, now: float) -> None:
        line.sharp = sharp = sharp_position(line.positions, self._sharp)
        if sharp is None or line.sides is None:
            line.fair = None
        elif not self._fair.holds_after(line.fair, book):
            line.fair = self._fair.fair_line(line.prices, line.sides)
        fair = line.fair
        if line.ev_since:
            for book in list(line.ev_since):
                self._check_value(line, book, now)
        if sharp is None:
            return
        if line.moves:
            for move in [m for m in line.moves if taken_back(m, sharp)]:
                self._censor(move, now, True)  # the books behind it are on the current side
        # A move is a jump within τ (from where the sharp price stood τ s before): a drift of
        # small steps is none, its followers track it step by step (docs/books.md).
        tau = self.settings.tau
        log = line.sharp_log
        if log is None:
            log = line.sharp_log = []
        while log and log[0][0] <= now - tau:
            _, line.ref, line.ref_fair = log.pop(0)
        log.append((now, sharp, fair))
        if line.ref is None:
            line.ref, line.ref_fair = sharp, fair
            return
        theta = self.settings.theta
        candidate = line.candidate
        if candidate is not None:
            if (sharp / candidate.before - 1.0) * candidate.direction >= theta:
                candidate.after, candidate.fair_after = sharp, fair
                return
            candidate.done = True  # it did not hold
            line.candidate = None
        change = sharp / line.ref - 1.0
        way = 1 if change > 0 else -1
        if abs(change) >= theta:
            move = SharpMove(line, now, way, abs(change), line.ref, sharp, line.ref_fair, fair)
            move.live = isinstance(line.key, tuple) and line.key[0] in self.in_play
            move.pending, move.ahead = watched(move, line.positions, self._sharp)
            line.candidate = move
            heapq.heappush(self._heap, (now + self.settings.tau, next(self._order), _CONFIRM, move))

    def _confirm(self, move: SharpMove, due: float) -> None:
        if move.done:
            return
        line = move.line
        line.candidate = None
        move.confirmed = True
        self.sharp_moves += 1
        # The next move is measured from where this one left the price.
        line.ref, line.ref_fair = line.sharp, line.fair
        if line.sharp_log:
            line.sharp_log.clear()
        for book, seconds, followed in move.followed:
            self._record(move, book, seconds, followed, True)
        move.followed = []
        if move.pending:
            line.moves.append(move)
            self._open.add(line.key)
            expire = move.start + self.settings.horizon
            heapq.heappush(self._heap, (expire, next(self._order), _EXPIRE, move))

    def _expire(self, move: SharpMove) -> None:
        if move.done:
            return
        horizon = self.settings.horizon
        line = move.line
        for book in move.pending:
            value = edge(line, book)
            if value is not None and value > self.settings.epsilon and book not in line.ev_since:
                # Still stale by its edge: the one stale line goes on, from the move.
                self._record(move, book, horizon, False, None)
                line.ev_since[book] = move.start + (0.0 if stale_by(move, book) else horizon)
            else:
                self._record(move, book, horizon, False, False)
        self._close(move)

    def _close(self, move: SharpMove) -> None:
        move.done = True
        move.pending = {}
        line = move.line
        if move in line.moves:
            line.moves.remove(move)
        if not line.moves:
            self._open.discard(line.key)

    def _censor(self, move: SharpMove, now: float, ended: bool) -> None:
        """`move` is over for the books still behind it: censored at `now` (stale: `ended`)."""
        for book in move.pending:
            self._record(move, book, now - move.start, False, ended)
        self._close(move)

    def _follows(self, line: LineState, book: str, pos: float | None, now: float) -> None:
        # A copy: a move closed in the loop leaves `line.moves`, which would skip the next.
        moves = [*line.moves] if line.candidate is None else [*line.moves, line.candidate]
        for move in moves:
            before = move.pending.get(book)
            if before is None:
                continue
            if pos is None:  # it stopped quoting: the stale line ended, the follow is censored
                del move.pending[book]
                self._note(move, book, now - move.start, False)
            elif (pos / before - 1.0) * move.direction >= move.size / 2.0:
                del move.pending[book]
                self._note(move, book, now - move.start, True)
            if move.confirmed and not move.pending:
                self._close(move)

    def _note(self, move: SharpMove, book: str, seconds: float, followed: bool) -> None:
        if move.confirmed:
            self._record(move, book, seconds, followed, True)
        else:
            move.followed.append((book, seconds, followed))

    def _record(self, move: SharpMove, book: str, seconds: float, followed: bool,
                ended: bool | None) -> None:
        """A follow (or not) of `move`; and its stale line's life unless `ended` is None."""
        tally = self.books[book]
        (tally.live_follows if move.live else tally.early_follows).append((seconds, followed))
        if ended is not None and book not in move.ahead:
            tally.stale.append((seconds, ended))

    # -- value against the fair price -------------------------------------------------------
    def _check_value(self, line: LineState, book: str, now: float) -> None:
        """A price with EV above ε against the line's fair line is a stale line until it goes
        (one not already stale as the old side of a sharp move: that is the same line)."""
        since = line.ev_since.get(book)
        if since is None and (line.moves or line.candidate is not None):
            candidate = line.candidate
            if candidate is not None and stale_by(candidate, book):
                return
            for move in line.moves:  # (a loop, not any(): no generator a change)
                if stale_by(move, book):
                    return
        value = edge(line, book)
        if value is not None and value > self.settings.epsilon:
            if since is None:
                line.ev_since[book] = now
        elif since is not None:
            del line.ev_since[book]
            self.books[book].stale.append((now - since, True))

    def edge(self, line: LineState, book: str) -> float | None:
        """`lines.edge`: `book`'s best EV on the line against its fair line, or None."""
        return edge(line, book)

    # -- episodes ------------------------------------------------------------------------
    def _episode(self, line: LineState, book: str, pos: float, now: float) -> None:
        anchor = line.anchors.get(book)
        if anchor is None:
            line.anchors[book] = pos
            return
        change = pos / anchor - 1.0
        if abs(change) < self._half_theta:
            return
        line.anchors[book] = pos
        way = 1 if change > 0 else -1
        episode = line.episode
        if (not isinstance(episode, Episode) or episode.direction != way
                or now - episode.start > self.settings.window):
            if isinstance(episode, Episode):
                self._end_episode(line, episode)
            episode = line.episode = Episode(line.key, now, way, book)
            due = now + self.settings.window
            heapq.heappush(self._heap, (due, next(self._order), _EPISODE, episode))
        was = episode.members.get(book)
        if was is None or abs(change) > was[1]:
            episode.members[book] = (now if was is None else was[0], abs(change),
                                     abs(pos - anchor))

    def _end_episode(self, line: LineState, episode: Episode) -> None:
        if len(episode.members) < 2:
            return
        books, theta, big = self.books, self.settings.theta, 0
        books[episode.leader].led += 1
        for book, (_, size, _) in episode.members.items():
            books[book].joined += 1
            if size >= theta:
                big += 1
        if big >= self.settings.k:
            self.episodes.append(ended(episode, line.positions, theta))

    # -- answers -----------------------------------------------------------------------
    def finish(self, at: float | None = None) -> None:
        """The end of the changes (at `at`, when the source went on after the last one): open
        follows and stale lines are censored where they are."""
        if at is not None and at > self.now:
            self.now = at
        now = self.now
        self.advance(now)
        for key in list(self._open):
            for move in list(self.lines[key].moves):
                self._censor(move, now, False)
        for line in self.lines.values():
            for book, since in line.ev_since.items():
                self.books[book].stale.append((now - since, False))
            line.ev_since = {}
            if isinstance(line.episode, Episode):
                self._end_episode(line, line.episode)
                line.episode = None

    def clusters(self) -> dict[str, str]:
        sister_of = self.sisters.sister_of(self.settings.sister_share)
        return clusters_of(sorted(self.books), sister_of)

    def steam(self, clusters: dict[str, str] | None = None) -> list[SteamEvent]:
        cluster = clusters if clusters is not None else self.clusters()
        return steam_events(self.episodes, cluster, self.settings.k)

    def open_moves(self) -> list[SharpMove]:
        """The confirmed sharp moves some book has not followed yet (the stale lines)."""
        return [move for key in self._open for move in self.lines[key].moves if move.pending]

    def value_stale(self) -> list[tuple[LineState, str, float]]:
        """(line, book, since) of the prices with EV above ε against the fair line now."""
        return [(line, book, since) for line in self.lines.values()
                for book, since in line.ev_since.items()]


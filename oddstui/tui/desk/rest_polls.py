"""Refreshing what is on screen over REST when the plan has no feed (a free key), and the pace of
the live list when it does.

A mixin of `DeskHub` (hub.py). The app tells the hub what is in front each second (`set_front`);
the hub's schedules, all paced by the one rule in `oddstui.api.pacing`, decide what is due:
- with a feed, the live list is refetched every `FEED_LIVE_REFRESH` s for clocks and kick-offs
  (the feed brings scores and prices);
- without one (403 at the handshake: "not in plan"), the screen in front gets `FRONT_SHARE` of
  the requests left before the reset (the live list, or the open Event's odds), the live list
  behind another screen `BACK_SHARE`; a board in front paces its own fetches by the same rule.
The words the desk shows ("the feed is not in this plan: prices refresh every N s over REST")
name the interval of the screen in front, as paced now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from oddstui.api.models import Budget
from oddstui.api.pacing import RefreshSchedule, paced_interval
from oddstui.api.rest import ApiClient
from oddstui.tui.desk.feed import Feed
from oddstui.tui.desk.state import Board

#: The feed's state when the service refused it for the plan (HTTP 403 at the handshake).
NOT_IN_PLAN = "not in plan"
#: With a feed: seconds between refetches of the live list (clocks, kick-offs the feed names
#: first ask for an early one). 30 s: 120 requests an hour, under the 200 the Live screen may use.
FEED_LIVE_REFRESH = 30.0
FEED_LIVE_SHARE = 0.25
#: ... and how often while a clock that stops for play (basketball, hockey) is only estimated:
#: the service does not tell when it stops, so a shown clock may drift this far from its own.
CLOCK_REFRESH = 3.0
#: Without a feed: the shortest interval of a REST refresh (an hour's budget stretches it), and
#: the shares of the requests left that the screen in front and the live list behind it get.
REST_REFRESH = 10.0
FRONT_SHARE, BACK_SHARE = 0.5, 0.1
#: The front kinds `set_front` takes.
LIVE, EVENT, BOARD, OTHER = "live", "event", "board", "other"


class RestPolling:
    """What is in front and when its REST refresh is due; `DeskHub` provides the attributes."""

    api: ApiClient
    feed: Feed | None
    board: Board
    live_schedule: RefreshSchedule
    now: Callable[[], float]

    def init_polling(self) -> None:
        #: The live list's pace with a feed, as the hub set it up.
        self._feed_pace = (self.live_schedule.base, self.live_schedule.share)
        self.front = LIVE
        self.front_event: int | None = None
        #: A board in front: the interval it paces itself at (it fetches on its own tick).
        self.front_interval: float | None = None
        self.odds_schedule = RefreshSchedule(
            REST_REFRESH, min_gap=REST_REFRESH, debounce=1.0, share=FRONT_SHARE
        )
        self._odds_for: int | None = None
        self._selection: tuple[str, ...] | None = None
        #: Local time of the last REST refresh of what is on screen (the data age without a feed).
        self.rest_at: float | None = None
        #: REST refreshes of the odds in front, for tests and the benchmark.
        self.odds_polls = 0

    def feed_refused_for_plan(self) -> bool:
        return self.feed is not None and self.feed.health().state == NOT_IN_PLAN

    def set_front(
        self, kind: str, event_id: int | None = None, interval: float | None = None
    ) -> None:
        """What the trader looks at now (the app says so each second, a board as it paces)."""
        self.front, self.front_event = kind, event_id
        if interval is not None or kind != BOARD:
            self.front_interval = interval
        if event_id != self._odds_for:
            self._odds_for = event_id
            self.odds_schedule = RefreshSchedule(
                REST_REFRESH, min_gap=REST_REFRESH, debounce=1.0, share=FRONT_SHARE
            )
        self.pace()

    def pace(self) -> None:
        """Set the live list's pace for the feed's state and the screen in front."""
        hour = self.api.budget_hour
        schedule = self.live_schedule
        schedule.hour = self.odds_schedule.hour = hour
        if not self.feed_refused_for_plan():
            schedule.base, schedule.share = self._feed_pace
            if self.board.estimating_clocks():  # the service does not say when clocks stop
                schedule.base = CLOCK_REFRESH
        elif self.front == LIVE:
            schedule.base, schedule.share = REST_REFRESH, FRONT_SHARE
        else:
            schedule.base, schedule.share = REST_REFRESH, BACK_SHARE

    def odds_refresh_due(self) -> bool:
        """Without a feed, the open Event's odds are due for a REST refresh."""
        return (
            self.front == EVENT
            and self.front_event is not None
            and self.feed_refused_for_plan()
            and self.odds_schedule.due(self.api.budget)
        )

    async def load_odds(self, event_id: int) -> None:
        """The event's odds over REST into the book (the feed would have brought them)."""
        self.odds_schedule.started()
        if self._selection is None:
            chosen = await self.api.selected_bookmakers()
            self._selection = tuple(chosen.bookmakers)
        if not self._selection or self.feed is None:
            return
        requested = self.feed.monotonic()
        records = await self.api.odds_multi([event_id], self._selection)
        self.feed.install_odds(records, requested)
        self.odds_polls += 1
        self.rest_at = self.now()
        self.flush()
        self.note_budget()

    def rest_words(self, budget: Budget) -> str:
        """What the desk says when the plan has no feed, with the front's refresh interval."""
        if self.front == BOARD:
            interval = self.front_interval
        elif self.front == EVENT:
            interval = self.odds_schedule.interval(budget)
        else:
            interval = self.live_schedule.interval(budget)
        if interval is None:
            return "the feed is not in this plan; REST refreshes paused until the hourly reset"
        return f"the feed is not in this plan: prices refresh every {interval:.0f} s over REST"

    def board_interval(self, base: float, budget: Budget) -> float | None:
        """A board's fetch interval: its base with a feed, the front's share of the budget
        without one (the one pacing rule either way)."""
        share = FRONT_SHARE if self.feed_refused_for_plan() else FEED_LIVE_SHARE
        return paced_interval(base, budget, share, hour=self.api.budget_hour)

    def flush(self) -> Any:
        """Publish a change set (the hub's)."""

    def note_budget(self) -> None:
        """The budget changed (the hub's)."""

"""When the desk may spend a REST request on a refresh: debounced, and paced by the hourly budget.

A refresh of one kind (the live events list) runs every `base` seconds while the budget is
plentiful. Less left, it runs less often: at most `share` of the requests left until the
budget resets go to it. An early refresh can be asked for (a kick-off the board has not listed,
a feed reconnect); asks within `debounce` seconds make one refresh, and never closer than
`min_gap` after the last one (stretched like the interval when the budget is low).

Every REST refresh of the desk (the live list, the boards, the open Event's odds without a feed)
is paced by `paced_interval`, the one rule. A window whose reset time has passed no longer binds:
the next refresh is due at once, and its answer brings the new window's budget (so a paused desk
resumes by itself at the reset the headers gave, on the app's one-second tick). A service with a
short "hour" (a test's) is learnt from its reset times (`BudgetTracker.hour`), and the base
intervals shrink with it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

from oddstui.api.models import Budget

#: Below this many requests left, periodic refreshes stop (what is left is kept for the trader);
#: a small plan keeps a tenth of its limit instead (10 of a free plan's 100).
RESERVE = 50
#: How long an hour's window is when the service sends no reset time.
WINDOW = 3600.0


def reserve(budget: Budget) -> int:
    """Requests kept back for the trader's own asks: `RESERVE`, or a tenth of a small limit."""
    return RESERVE if not budget.limit else max(1, min(RESERVE, budget.limit // 10))


def paced_interval(
    base: float,
    budget: Budget,
    share: float,
    now: datetime | None = None,
    hour: float = WINDOW,
) -> float | None:
    """Seconds between refreshes: `base`, or longer so that they spend at most `share` of the
    requests left before the reset; None (stop) below `reserve(budget)` requests left.

    `hour`: the service's window in seconds as learnt (a test's service may shorten it); the
    base interval shrinks with it. A reset time already past gives the base: the next answer
    brings the new window's budget."""
    base = base * min(max(hour, 1.0), WINDOW) / WINDOW
    remaining = budget.remaining
    if remaining is None:
        return base
    seconds_left = hour
    if budget.reset is not None:
        seconds_left = (budget.reset - (now or datetime.now(UTC))).total_seconds()
        if seconds_left <= 0:
            return base
        seconds_left = max(seconds_left, 1.0)
    if remaining < reserve(budget):
        return None
    return max(base, seconds_left / max(remaining * share, 1.0))


class RefreshSchedule:
    """One kind of refresh: `due(budget)` says whether to send it now; `started()` when sent."""

    def __init__(
        self,
        base: float,
        *,
        min_gap: float,
        debounce: float,
        share: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base = base
        #: The service's window in seconds as learnt from its reset times (see `learn_hour`).
        self.hour = WINDOW
        self.min_gap = min_gap
        self.debounce = debounce
        self.share = share
        self._clock = clock
        self._last: float | None = None
        self._asked: float | None = None
        #: Asks and refreshes so far (tests read them).
        self.asks = self.refreshes = 0

    def ask(self) -> None:
        """Something the last answer lacks was seen: refresh early (debounced)."""
        self.asks += 1
        if self._asked is None:
            self._asked = self._clock()

    def started(self) -> None:
        self.refreshes += 1
        self._last = self._clock()
        self._asked = None

    def interval(self, budget: Budget) -> float | None:
        return paced_interval(self.base, budget, self.share, hour=self.hour)

    def due(self, budget: Budget) -> bool:
        if self._last is None:
            return True
        interval = self.interval(budget)
        if interval is None:
            return False
        now = self._clock()
        since = now - self._last
        if since >= interval:
            return True
        if self._asked is None or now - self._asked < self.debounce:
            return False
        return since >= self.min_gap * interval / self.base

    def note(self, budget: Budget) -> str:
        """One line for the status bar when the budget slows this refresh, else ""."""
        interval = self.interval(budget)
        if interval is None:
            return "budget low: refreshes paused"
        if interval > self.base * 1.01:
            return f"budget low: refresh every {_duration(interval)}"
        return ""


def _duration(seconds: float) -> str:
    return f"{seconds:.0f}s" if seconds < 120 else f"{seconds / 60:.0f}m"

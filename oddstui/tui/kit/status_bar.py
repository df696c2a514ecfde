"""The status bar (feed state, last seq, data age, requests left, clock) and the feed banner."""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual.app import ScreenStackError
from textual.screen import ModalScreen
from textual.widgets import Static

from oddstui.api.messages import ReplayInfo
from oddstui.tui.desk.state import ChangeSet, DeskStatus
from oddstui.tui.text import clean, fit

STATE_LABELS = {
    "connecting": "connecting",
    "live": "live",
    "replaying": "replaying",
    "resyncing": "resyncing",
    "stale": "stale",
    "replaced": "replaced",
    "offline": "offline",
    "unauthorized": "unauthorized",
    "not in plan": "REST",
}

BANNERS = {
    "connecting": "Connecting to the feed… scores and prices appear once it answers.",
    "resyncing": "Resyncing: reloading prices after a gap. Figures shown may be out of date.",
    "stale": "Stale: no data from the feed for a while. Figures shown may be out of date.",
    "offline": "Offline: the feed is down, reconnecting. Scores and prices shown are old.",
    "replaced": (
        "Replaced: another client opened a feed with this key. Figures are frozen. "
        "Press r to take the feed back."
    ),
    "unauthorized": "Unauthorized: the service refused this API key. Figures are not live.",
}


def data_age(status: DeskStatus, now: float) -> str:
    if status.last_receive is None:
        return "–"
    age = max(now - status.last_receive, 0.0)
    if age < 10:
        return f"{age:.1f}s"
    if age < 3600:
        return f"{int(age)}s" if age < 120 else f"{int(age // 60)}m"
    return f"{int(age // 3600)}h"


class StatusBar(Static):
    """One line at the bottom of every screen.

    | class | when |
    |---|---|
    | `-healthy` | the feed is live |
    | `-warning` | connecting, replaying, resyncing or stale; no feed in the plan (REST) |
    | `-error` | offline, replaced or unauthorized |
    """

    DEFAULT_CSS = """
    StatusBar { height: 1; padding: 0 1; }
    """

    def on_mount(self) -> None:
        # The bar keeps itself live from the hub, whatever its screen is doing: a paused
        # board behind a ticket or the help still shows the feed's health and the time.
        self._hub: Any = getattr(self.app, "hub", None)
        if self._hub is not None:
            self._hub.ticked.subscribe(self, self._ticked)
            self._hub.changed.subscribe(self, self._changed)

    def _seen(self) -> bool:
        """Its screen is on top, or right under a modal (dimmed, still read)."""
        try:
            stack = self.app.screen_stack
            screen = self.screen
        except (ScreenStackError, LookupError):
            return False
        if stack and stack[-1] is screen:
            return True
        return len(stack) >= 2 and stack[-2] is screen and isinstance(stack[-1], ModalScreen)

    def _ticked(self, now: float) -> None:
        if self._seen():
            self.show(self._hub.status, now, local_clock(now))

    def _changed(self, changes: ChangeSet) -> None:
        if changes.feed and self._seen():
            now = self._hub.now()
            self.show(self._hub.status, now, local_clock(now))

    def show(self, status: DeskStatus, now: float, clock_text: str) -> None:
        state = STATE_LABELS.get(status.state, status.state)
        # Behind a relay, a live link to it is only as good as the relay's own upstream.
        upstream_down = status.relay is not None and status.relay != "live"
        self.set_class(status.state == "live" and not upstream_down, "-healthy")
        self.set_class(
            status.state in ("connecting", "replaying", "resyncing", "stale", "not in plan")
            or (status.state == "live" and upstream_down),
            "-warning",
        )
        self.set_class(status.state in ("offline", "replaced", "unauthorized"), "-error")
        seq = "–" if status.last_seq is None else str(status.last_seq)
        left = "–" if status.requests_left is None else str(status.requests_left)
        line = Text()
        line.append(f"● {state}", style="bold")
        alerts = getattr(self.app, "alerts", None)
        flag = alerts.status_line(now) if alerts is not None else ""
        if flag:  # a small terminal: the alerts stack here, on one line, instead of toasts
            room = max((self.size.width or 80) - 2 - line.cell_len - 4 - len(clock_text), 8)
            line.append("  ")
            line.append(fit(flag, room), style="bold reverse")
            line.append(f"  {clock_text}")
            self._paint(line)
            return
        if status.relay is not None:
            # Only a live link to the relay hears what its upstream is doing: otherwise the
            # last word heard is no news of it.
            upstream = clean(status.relay) if status.state == "live" else "unknown"
            line.append(f"  via relay, upstream {upstream}")
        if status.replay is not None:
            line.append(f"  {replay_text(status.replay)}", style="bold")
        if status.state == "not in plan":  # the words say why there is no feed, and the pace
            line.append(f"  {clean(status.detail)}", style="bold")
        line.append(f"  seq {seq}  age {data_age(status, now)}  req left {left}/h")
        if status.budget_note:
            line.append(f" ({status.budget_note})", style="bold")
        line.append(f"  {clock_text}")
        self._paint(line)

    def _paint(self, line: Text) -> None:
        if line == getattr(self, "_shown", None):
            return  # the screen and the bar both tell it each second: paint it once
        self._shown = line
        self.update(line, layout=False)  # one line high; a layout pass repaints the whole screen


class FeedBanner(Static):
    """A plain-words banner shown when the data on screen may not be current."""

    DEFAULT_CSS = """
    FeedBanner { height: auto; padding: 0 1; display: none; }
    FeedBanner.-shown { display: block; }
    """

    def show(self, status: DeskStatus) -> None:
        if status.state == "not in plan":  # the words alone: nothing is wrong with the key
            self.set_class(True, "-shown")
            words = clean(status.detail)
            self.update(Text(words[:1].upper() + words[1:] + "."))
            return
        message = BANNERS.get(status.state)
        self.set_class(message is not None, "-shown")
        if message is not None:
            detail = f" ({status.detail})" if status.detail else ""
            self.update(Text(message + clean(detail)))


def replay_text(replay: ReplayInfo) -> str:
    """`REPLAY 10× 21:47:03` (the recorded time being played, local), `ended` at its end."""
    at = replay.now(time.monotonic())
    speed = f"{replay.speed:g}×"
    ended = " ended" if replay.until is not None and at >= replay.until else ""
    return f"REPLAY {speed} {time.strftime('%H:%M:%S', time.localtime(at))}{ended}"


def local_clock(now: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(now))

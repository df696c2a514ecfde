"""The desk on a free key of the real service (plan "free": 100 requests an hour, no feed), over
an accelerated hour: the service's rate-limit window is shortened to `HOUR` seconds through the
accounts file's `hour_seconds`; the desk learns it, and the reset time, from the answers.

What a trader sees and what the service is sent are both checked: the words say the feed is not
in the plan, the Live screen's scores keep changing over REST, an open Event's odds come over
REST, no window of an "hour" carries more
than 100 of the desk's requests, and after another client on the same key spends the hour down,
the desk pauses and resumes by itself at the reset (no key pressed).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from oddstui import config
from oddstui.tui.kit.status_bar import FeedBanner, StatusBar
from oddstui.tui.launch import build_app
from tests.tui.conftest import Service, start_service, ticks_pass, wait_for

pytestmark = pytest.mark.slow  # two accelerated hours of the live world

FREE_KEY = "k-free-desk-1"
HOUR = 30  # seconds: the service's "hour" for this test
LIMIT = 100


@pytest.fixture(scope="module")
def free_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    accounts = tmp_path_factory.mktemp("free") / "accounts.toml"
    # A free plan selects two bookmakers: two that quote in play.
    accounts.write_text(
        f'[[account]]\nkey = "{FREE_KEY}"\nplan = "free"\nhour_seconds = {HOUR}\n'
        'bookmakers = ["Pinnacle", "Bet365"]\n'
    )
    # 60x: goals come every few seconds, so a score that stops changing is the desk's fault.
    running = start_service("--speed", "60", "--seed", "11", "--accounts", str(accounts))
    yield running
    running.stop()


class Sent:
    """The desk's requests as its HTTP client sends them (keyed ones count against the hour)."""

    def __init__(self) -> None:
        self.keyed: list[tuple[float, str]] = []
        self.refused = 0

    async def request(self, request: httpx.Request) -> None:
        if "apiKey" in request.url.params:
            self.keyed.append((time.time(), request.url.path))

    async def response(self, response: httpx.Response) -> None:
        if response.status_code == 429:
            self.refused += 1

    def most_in_any_window(self, seconds: float) -> int:
        stamps = [at for at, _ in self.keyed]
        return max((sum(1 for s in stamps if at <= s < at + seconds) for at in stamps), default=0)


def spend_down(service: Service, leave: int) -> datetime:
    """Another client on the same key spends the hour until `leave` requests are left; returns
    the reset time the service gave."""
    while True:
        answer = httpx.get(
            service.base_url + "/bookmakers/selected", params={"apiKey": FREE_KEY}, timeout=10
        )
        assert answer.status_code == 200
        if int(answer.headers["x-ratelimit-remaining"]) <= leave:
            reset = answer.headers["x-ratelimit-reset"]
            return datetime.strptime(reset, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def live_scores(app: object) -> dict[int, tuple[object, object]]:
    board = app.hub.board  # type: ignore[attr-defined]
    return {event.id: (event.score_home, event.score_away) for event in board.live_events()}


def shown(app: object) -> str:
    screen = app.screen  # type: ignore[attr-defined]
    bar = str(screen.query_one(StatusBar).render())
    banner = str(screen.query_one(FeedBanner).render())
    return bar + "\n" + banner


@pytest.mark.timeout(180)
async def test_a_free_key_lives_through_an_hour_on_rest(free_service: Service, home: Path) -> None:
    app = build_app(free_service.base_url, FREE_KEY, config.Settings())
    sent = Sent()
    app.hub.api._http.event_hooks["request"].append(sent.request)
    app.hub.api._http.event_hooks["response"].append(sent.response)
    async with app.run_test(size=(160, 40)) as pilot:
        await wait_for(lambda: app.hub.status.state == "not in plan", pilot, 30)
        await wait_for(lambda: "prices refresh every" in shown(app), pilot, 30)
        words = shown(app)
        assert "the feed is not in this plan: prices refresh every" in words
        assert "over REST" in words and "nauthorized" not in words
        # Learnt from the answer opening a window: the next one, when the module's other test
        # opened the one the desk started in.
        await wait_for(lambda: app.hub.api.budget_hour <= HOUR + 1, pilot, HOUR + 30)

        # The Live screen's scores keep changing over REST alone (several refreshes).
        seen = [live_scores(app)]

        def scores_moved() -> bool:
            now = live_scores(app)
            if now and now != seen[-1]:
                seen.append(now)
            return len(seen) >= 3

        await wait_for(scores_moved, pilot, HOUR)

        # An Event opened in front: its odds come over REST (the feed would have brought them).
        board = app.hub.board
        event_id = max(live_scores(app), key=lambda i: board.events[i].bookmaker_count or 0)
        app.open_event(event_id)
        await wait_for(lambda: app.hub.odds_polls >= 2, pilot, HOUR)
        quoted = app.hub.read(lambda book: book.event(event_id))
        assert quoted is not None and quoted.books, "no prices came over REST"
        await app.pop_screen()

        # Another client spends the hour down: the desk keeps its reserve and pauses.
        reset = spend_down(free_service, leave=5)
        await wait_for(lambda: "paused until the hourly reset" in shown(app), pilot, 10)
        paused_at = len(sent.keyed)

        # ... and resumes by itself at the reset the headers gave, without a key pressed.
        wait = (reset - datetime.now(UTC)).total_seconds()
        assert 0 < wait <= HOUR
        await wait_for(lambda: len(sent.keyed) > paused_at, pilot, wait + 10)
        assert sent.keyed[paused_at][0] >= reset.timestamp()  # nothing was sent while paused
        await wait_for(lambda: "prices refresh every" in shown(app), pilot, 10)
        before = live_scores(app)
        await wait_for(lambda: live_scores(app) != before, pilot, HOUR)

    assert sent.refused == 0
    assert sent.keyed  # the desk did ask: the window check below is over real requests
    assert sent.most_in_any_window(HOUR) <= LIMIT


async def test_a_board_not_in_the_plan_asks_once(free_service: Service, home: Path) -> None:
    """Dropping odds are paid-only: the board says so and does not spend the hour asking again."""
    from oddstui.tui.boards.dropping import FORBIDDEN_TEXT, DroppingOddsScreen

    app = build_app(free_service.base_url, FREE_KEY, config.Settings(), start_mode="dropping")
    sent = Sent()
    app.hub.api._http.event_hooks["request"].append(sent.request)
    async with app.run_test(size=(160, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, DroppingOddsScreen)
        await wait_for(lambda: screen.load_error == FORBIDDEN_TEXT, pilot, 30)
        # Past the time its next fetch was due, and a few ticks more: no second ask.
        await wait_for(lambda: time.monotonic() > screen._next_fetch, pilot, 40)
        await ticks_pass(app, pilot, 3)
    asked = [path for _, path in sent.keyed if path.endswith("/dropping-odds")]
    assert len(asked) == 1

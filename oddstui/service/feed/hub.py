"""The built-in service's feed: `FeedCore` fed by the world's listener calls.

The world mutates only inside `step()`, which never awaits, and calls `on_odds`, `on_score` and
`on_status` from there; the core serves the connections (see core.py).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from oddstui.seed_markets import SEED_MARKETS
from oddstui.server.feed.core import CLOSE_TIMEOUT, FRAME_LIMIT, FeedCore
from oddstui.server.feed.messages import score_text, status_text
from oddstui.server.feed.params import SCORES, STATUS
from oddstui.service.feed.source import WorldView
from oddstui.service.world.model import LIVE, PENDING, Event

if TYPE_CHECKING:
    from oddstui.service.world import World

log = logging.getLogger("oddstui.service.feed")
_Listener = TypeVar("_Listener", bound=Callable[..., None])


def _guarded(method: _Listener) -> _Listener:
    """A listener the world calls inside `step()`: a feed bug must never stop the world."""

    @functools.wraps(method)
    def guarded(*args: Any) -> None:
        try:
            method(*args)
        except Exception:
            log.exception("feed listener %s failed", method.__name__)

    return guarded  # type: ignore[return-value]


class FeedHub(FeedCore):
    """The WebSocket feed at `{base}/ws` over a `World` and the service's `Accounts`."""

    def __init__(
        self,
        world: World,
        accounts: Any,
        *,
        queue_limit: int | None = None,
        frame_limit: int = FRAME_LIMIT,
        close_timeout: float = CLOSE_TIMEOUT,
    ) -> None:
        self._view = WorldView(world)
        super().__init__(
            self._view,
            accounts,
            queue_limit=queue_limit,
            frame_limit=frame_limit,
            close_timeout=close_timeout,
            # Every odds message lists the bookmaker's complete markets (WIRE.md): clients may drop
            # a market that a message leaves out. A relay cannot promise it, so it is ours alone.
            welcome_fields=lambda: {"complete_markets": True},
            # A subscription naming a market the world never quotes is refused with 400.
            market_names=(*SEED_MARKETS, *world.market_types()),
        )
        # Events seen live, so that a status filter also sees a live match being cancelled.
        self._was_live = {event.id for event in world.events.values() if event.status == LIVE}
        self._last_scores: dict[int, tuple[Any, Any]] = {}  # by live event: last sent
        world.subscribe(self)

    # -- the world's listener interface (called inside `World.step()`) ----------------------------

    @_guarded
    def on_odds(self, entries: Any) -> None:
        if self.wants_odds():
            self.publish_odds(self._view.changes(entries))

    @_guarded
    def on_score(self, event: Event) -> None:
        # The world reports a step's score activity and its clocks stopping and starting; a
        # deuce won back within one step nets to no change, and only real changes are sent.
        scores = event.scores.to_wire()
        clock = _clock_wire(event)
        turn = None if clock is None else (clock["running"], clock["period"])
        if self._last_scores.get(event.id) == (scores, turn):
            return
        self._last_scores[event.id] = (scores, turn)
        self.publish_event(
            SCORES,
            event.id,
            (event.sport.slug, event.league.slug, event.status),
            (event.status,),
            lambda: score_text(event.id, self._view.now_iso(), scores, clock),
        )

    @_guarded
    def on_status(self, event: Event) -> None:
        # A transition is seen by a status filter that matches either end of it.
        before = _previous_status(event.status, event.id in self._was_live)
        if event.status == LIVE:
            self._was_live.add(event.id)
        else:
            self._was_live.discard(event.id)
            self._last_scores.pop(event.id, None)
        self.publish_event(
            STATUS,
            event.id,
            (event.sport.slug, event.league.slug, event.status),
            (event.status, *before),
            lambda: status_text(
                event.id,
                self._view.now_iso(),
                event.status,
                event.scores.to_wire(),
                _clock_wire(event),
            ),
        )


def _clock_wire(event: Event) -> dict[str, Any] | None:
    """A live event's clock as the feed sends it (ours; docs/desk.md, "Wire")."""
    if event.status != LIVE or event.clock is None:
        return None
    return event.clock.to_wire()


def _previous_status(status: str, was_live: bool) -> tuple[str, ...]:
    if status == LIVE:
        return (PENDING,)
    if status == PENDING:
        return ()
    return (LIVE,) if was_live else (PENDING,)

"""The relay's periodic walk of the event catalog, so its feed filters know every event's place.

Feed messages carry only an event id; a client filtering by sport, league or status needs the
relay to know where each event is. Every `every` seconds the relay lists each sport's events
(GET /events?sport=..., the last day to 14 days ahead, pending and live) through its own REST
side, so the answers also warm the cache the desks read. It costs the upstream key one request
per sport and walk: 35 requests every 10 minutes by default, about 4 % of 5,000 an hour.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from oddstui.relay.rest import RelayRest

try:
    from orjson import loads
except ImportError:  # pragma: no cover - depends on the environment
    from json import loads  # type: ignore[assignment]

log = logging.getLogger("oddstui.relay")
DEFAULT_EVERY = 600.0


async def walk(rest: RelayRest) -> int:
    """One walk; returns how many sports were listed. Failures are logged, never raised."""
    sports = await rest.upstream("/sports", "/sports", {})
    if sports.status != 200:
        log.warning("catalog walk: GET /sports answered %d", sports.status)
        return 0
    listed = 0
    for sport in loads(sports.body):
        slug = sport.get("slug") if isinstance(sport, dict) else None
        if not isinstance(slug, str):
            continue
        answer = await rest.upstream("/events", "/events", {"sport": slug})
        listed += answer.status == 200
    return listed


async def keep_walking(rest: RelayRest, every: float) -> None:
    """Walk every `every` seconds (the first walk after one wait), until cancelled."""
    while True:
        await asyncio.sleep(every)
        with contextlib.suppress(Exception):
            await walk(rest)

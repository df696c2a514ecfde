"""The world's prices open after the ready line: live matches first, then those kicking off
soonest, a slice at a time on the server's loop, so that what needs no prices (sports, events,
scores: the desk's first rows) is answered at once. Routes that read prices wait (service/app.py).

Nothing steps the world meanwhile, so the derived indexes, which build on a first request, see
every opened price.
"""

from __future__ import annotations

import asyncio
import time

from oddstui.service.context import ServiceContext

WARM_UPCOMING = 24  # events kicking off soonest opened with the live ones; steps open the rest
SLICE = 0.005  # real seconds of opening between two turns of the loop (a request waits no longer)


async def warm_then_run(svc: ServiceContext, upcoming: int = WARM_UPCOMING) -> None:
    """Open the world's prices, then step it until cancelled."""
    try:
        turn = time.perf_counter() + SLICE
        for _ in svc.world.warming(upcoming):
            if time.perf_counter() >= turn:
                await asyncio.sleep(0)
                turn = time.perf_counter() + SLICE
    finally:
        svc.warmed.set()  # a failed warm-up still serves what is open
    await svc.world.run()

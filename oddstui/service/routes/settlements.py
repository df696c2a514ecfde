"""Settlements and grading from the world's events; the rule is `server.grading` over
`book.settlement`. A match the world played to its end is `awaiting_result` (final false,
grades pending) for `CONFIRM_AFTER` simulated seconds, then settled and final, as the public
service confirms a result some time after the whistle."""

from __future__ import annotations

from typing import Any

from oddstui.server.grading import Lookup, Outcome, grades, settlements
from oddstui.service.routes.call import Call, Handler
from oddstui.service.world.model import Event

CONFIRM_AFTER = 60.0  # simulated seconds between the end of a match and its confirmed result
AWAITING = "awaiting_result"


def outcome_of(call: Call) -> Lookup:
    world = call.world

    def lookup(event_id: int) -> Outcome | None:
        event: Event | None = world.event_laid_out(event_id)
        if event is None:
            return None
        status = event.status
        ended = event.settled_at
        if status == "settled" and ended is not None and world.now() - ended < CONFIRM_AFTER:
            status = AWAITING
        final = status in ("settled", "cancelled")
        return Outcome(event.sport.slug, status, event.scores.to_wire(), final)

    return lookup


def get_settlements(call: Call) -> dict[str, Any]:
    return settlements(call.q["eventIds"], outcome_of(call))


def grade(call: Call) -> dict[str, Any]:
    return grades(call.body, outcome_of(call))


HANDLERS: dict[str, Handler] = {
    "/settlements": get_settlements,
    "/settlements/grade": grade,
}

"""Settlements and grading from the world's events; the rule is `server.grading` over
`book.settlement`. The world confirms a result the moment a match ends, so its events are never
`awaiting_result` (a recording or the public service may say so)."""

from __future__ import annotations

from typing import Any

from oddstui.server.grading import Outcome, grades, settlements
from oddstui.service.routes.call import Call, Handler
from oddstui.service.world.model import Event


def outcome_of(call: Call):
    world = call.world

    def lookup(event_id: int) -> Outcome | None:
        event: Event | None = world.event_laid_out(event_id)
        if event is None:
            return None
        final = event.status in ("settled", "cancelled")
        return Outcome(event.sport.slug, event.status, event.scores.to_wire(), final)

    return lookup


def get_settlements(call: Call) -> dict[str, Any]:
    return settlements(call.q["eventIds"], outcome_of(call))


def grade(call: Call) -> dict[str, Any]:
    return grades(call.body, outcome_of(call))


HANDLERS: dict[str, Handler] = {
    "/settlements": get_settlements,
    "/settlements/grade": grade,
}

"""`/settlements` and `/settlements/grade` for any source: the body checked, each selection
graded by `book.settlement.grade_leg` from the event's final score, in the order sent.

A source (the world, a recording) only says what it knows of an event: `Outcome`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from oddstui.book.settlement import PENDING, UNGRADEABLE, VERDICTS, VOID, ScoreSheet, grade_leg
from oddstui.server.errors import BadRequest
from oddstui.server.routes.settlements import MAX_SELECTIONS

FINISHED, CANCELLED = "settled", "cancelled"
_TEXT = 120  # longest market, side or label accepted


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a source knows of one event: its sport, status, wire scores and whether final."""

    sport: str
    status: str
    scores: Mapping[str, Any]  # the wire's `scores` object: home, away, periods
    final: bool


@dataclass(frozen=True, slots=True)
class Selection:
    event_id: int
    market: str
    side: str
    hdp: float | None
    label: str
    ref: Any


Lookup = Callable[[int], Outcome | None]


def settlements(ids: list[int], lookup: Lookup) -> dict[str, Any]:
    """The `/settlements` body: known events in the order asked, unknown ids in `notFound`."""
    found, missing = [], []
    for event_id in ids:
        outcome = lookup(event_id)
        if outcome is None:
            missing.append(event_id)
            continue
        found.append(
            {
                "eventId": event_id,
                "status": outcome.status,
                "final": outcome.final,
                "scores": dict(outcome.scores) if outcome.status != "pending" else None,
            }
        )
    return {"settlements": found, "notFound": missing}


def grades(body: Any, lookup: Lookup) -> dict[str, Any]:
    """The `/settlements/grade` body for a request body; 400 naming the first bad field."""
    return {"grades": [grade(selection, lookup) for selection in parse_selections(body)]}


def grade(selection: Selection, lookup: Lookup) -> dict[str, Any]:
    outcome = lookup(selection.event_id)
    answer: dict[str, Any] = {}
    if selection.ref is not None:
        answer["ref"] = selection.ref
    answer.update(
        eventId=selection.event_id,
        market=selection.market,
        side=selection.side,
        hdp=selection.hdp,
        label=selection.label,
    )
    if outcome is None:
        return {**answer, **_verdict(UNGRADEABLE, "no event with this id", False, None)}
    scores = dict(outcome.scores)
    if outcome.status == CANCELLED:
        return {**answer, **_verdict("void", "the event was cancelled", True, None)}
    if outcome.status != FINISHED or not outcome.final:
        reason = f"the event is {outcome.status.replace('_', ' ')}; no confirmed result yet"
        shown = scores if outcome.status != "pending" and scores else None  # as /settlements
        return {**answer, **_verdict(PENDING, reason, False, shown)}
    sheet = _sheet(scores)
    if sheet is None:
        return {**answer, **_verdict(UNGRADEABLE, "the final score is missing", True, None)}
    result = grade_leg(
        outcome.sport, selection.market, selection.hdp, selection.side, sheet, label=selection.label
    )
    reason = result.reason
    if result.result == VOID:
        reason = "the line pushed: stakes back"
    return {**answer, **_verdict(result.verdict, reason, True, scores)}


def _verdict(result: str, reason: str, final: bool, score: Any) -> dict[str, Any]:
    assert result in (*VERDICTS.values(), PENDING, UNGRADEABLE)
    return {"result": result, "reason": reason, "final": final, "score": score}


def _sheet(scores: Mapping[str, Any]) -> ScoreSheet | None:
    try:
        periods = {
            str(key): (int(value["home"]), int(value["away"]))
            for key, value in (scores.get("periods") or {}).items()
        }
        return ScoreSheet(int(scores["home"]), int(scores["away"]), periods)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def parse_selections(body: Any) -> list[Selection]:
    if not isinstance(body, dict) or "selections" not in body:
        raise BadRequest('body: must be a JSON object {"selections": [...]}')
    items = body["selections"]
    if not isinstance(items, list) or not items:
        raise BadRequest("selections: must be a non-empty array")
    if len(items) > MAX_SELECTIONS:
        raise BadRequest(f"selections: at most {MAX_SELECTIONS} allowed; got {len(items)}")
    return [_selection(index, item) for index, item in enumerate(items)]


def _selection(index: int, item: Any) -> Selection:
    where = f"selections[{index}]"
    if not isinstance(item, dict):
        raise BadRequest(f"{where}: must be an object")
    event_id = item.get("eventId")
    if isinstance(event_id, str) and event_id.strip().isdigit():
        event_id = int(event_id.strip())
    if isinstance(event_id, bool) or not isinstance(event_id, int) or not 1 <= event_id <= 2**53:
        raise BadRequest(f"{where}.eventId: required, a positive integer")
    hdp = item.get("hdp")
    if isinstance(hdp, str):
        try:
            hdp = float(hdp)
        except ValueError:
            raise BadRequest(f"{where}.hdp: must be a number") from None
    if hdp is not None and (isinstance(hdp, bool) or not isinstance(hdp, int | float)):
        raise BadRequest(f"{where}.hdp: must be a number")
    if hdp is not None and not math.isfinite(hdp):
        raise BadRequest(f"{where}.hdp: must be a finite number")
    ref = item.get("ref")
    if ref is not None and (not isinstance(ref, str | int | float) or isinstance(ref, bool)):
        raise BadRequest(f"{where}.ref: must be a string or a number")
    if isinstance(ref, str) and len(ref) > _TEXT:
        raise BadRequest(f"{where}.ref: at most {_TEXT} characters")
    return Selection(
        event_id=event_id,
        market=_text(item, "market", where, required=True),
        side=_text(item, "side", where, required=True),
        hdp=None if hdp is None else float(hdp),
        label=_text(item, "label", where, required=False),
        ref=ref,
    )


def _text(item: dict[str, Any], name: str, where: str, *, required: bool) -> str:
    value = item.get(name)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise BadRequest(f"{where}.{name}: {'required, ' if required else ''}a string")
    if len(value) > _TEXT or any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise BadRequest(f"{where}.{name}: at most {_TEXT} printable characters")
    return value.strip()

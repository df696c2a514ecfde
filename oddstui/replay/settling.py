"""What a recording can say of settlement: `/settlements` and `/settlements/grade` from the
recorded status and scores (graded by the one rule, `server.grading`), and
`/historical/closing-lines` from the prices recorded at each event's kickoff."""

from __future__ import annotations

from typing import Any

from oddstui.recording.manifest import unix
from oddstui.replay.state import ReplayState
from oddstui.server.endpoint import Checked
from oddstui.server.errors import BadRequest
from oddstui.server.grading import Outcome, grades, settlements

MAX_SPAN = 31 * 86400.0
ENDED = ("settled", "cancelled")


class ReplaySettling:
    def __init__(self, state: ReplayState) -> None:
        self.state = state

    def outcome(self, event_id: int) -> Outcome | None:
        event = self.state.events.get(event_id)
        if event is None:
            return None
        sport = event.get("sport")
        slug = str(sport.get("slug", "")) if isinstance(sport, dict) else ""
        status = str(event.get("status", "pending"))
        scores = event.get("scores") if isinstance(event.get("scores"), dict) else {}
        return Outcome(slug, status, scores or {}, status in ENDED)

    def settlements(self, checked: Checked) -> dict[str, Any]:
        return settlements(checked.q["eventIds"], self.outcome)

    def grade(self, checked: Checked) -> dict[str, Any]:
        return grades(checked.body, self.outcome)

    def closing_lines(self, checked: Checked) -> list[dict[str, Any]]:
        q = checked.q
        start, end = q["from"], q["to"]
        if start > end:
            raise BadRequest("from: must not be after to")
        if end - start > MAX_SPAN:
            raise BadRequest("to: the span from 'from' to 'to' must be at most 31 days")
        wanted = {name.casefold() for name in q["markets"] or ["ML"]}
        leagues = set(q["leagues"] or [])
        found = []
        for event_id, books in self.state.closing.items():
            event = self.state.events.get(event_id, {})
            if event.get("status") != "settled" or not _within(event.get("date"), start, end):
                continue
            if _slug(event.get("sport")) != q["sport"].lower():
                continue
            if leagues and _slug(event.get("league")) not in leagues:
                continue
            record = {k: v for k, v in event.items() if k not in ("clock", "homeId", "awayId")}
            record["urls"] = {}
            record["bookmakers"] = {
                book: [m for m in markets if str(m.get("name", "")).casefold() in wanted]
                for book, markets in books.items()
                if book in q["bookmakers"]
            }
            found.append(record)
        found.sort(key=lambda r: (str(r.get("date")), r.get("id", 0)))
        return found[: q["limit"]]


def _slug(value: Any) -> str:
    return str(value.get("slug", "")) if isinstance(value, dict) else ""


def _within(date: Any, start: float, end: float) -> bool:
    try:
        return start <= unix(str(date)) < end
    except ValueError:
        return False

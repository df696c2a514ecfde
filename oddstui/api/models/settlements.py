"""Records of the routes the public interface gained after the seed: a sport's markets,
settlements (status and final score) and grades of bets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oddstui.api.models.events import Scores, parse_scores
from oddstui.api.models.fields import (
    as_int,
    as_list,
    as_mapping,
    as_str,
    malformed,
)


@dataclass(frozen=True, slots=True)
class MarketInfo:
    """One entry of GET /markets: the exact name, how it reads, its period, when offered."""

    name: str
    shape: str
    period: str
    prematch: bool
    live: bool


@dataclass(frozen=True, slots=True)
class Settlement:
    event_id: int
    status: str  # pending, live, awaiting_result, settled, cancelled
    final: bool
    scores: Scores | None


@dataclass(frozen=True, slots=True)
class Settlements:
    settlements: tuple[Settlement, ...]
    not_found: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Selection:
    """A bet to grade, with the fields of an odds row (`hdp` for lines, `label` for props)."""

    event_id: int
    market: str
    side: str
    hdp: float | None = None
    label: str = ""
    ref: str | int | None = None

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {"eventId": self.event_id, "market": self.market, "side": self.side}
        if self.hdp is not None:
            wire["hdp"] = self.hdp
        if self.label:
            wire["label"] = self.label
        if self.ref is not None:
            wire["ref"] = self.ref
        return wire


@dataclass(frozen=True, slots=True)
class Grade:
    """One verdict: won, lost, void, half_won, half_lost, pending or ungradeable (`reason`)."""

    result: str
    reason: str
    final: bool
    event_id: int | None
    ref: Any = None
    scores: Scores | None = None


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise malformed(f"{what} is not a boolean")
    return value


def parse_market_info(value: Any) -> MarketInfo:
    raw = as_mapping(value, "market")
    return MarketInfo(
        as_str(raw.get("name"), "market.name"),
        as_str(raw.get("shape", ""), "market.shape"),
        as_str(raw.get("period", ""), "market.period"),
        _bool(raw.get("prematch", True), "market.prematch"),
        _bool(raw.get("live", True), "market.live"),
    )


def parse_settlements(value: Any) -> Settlements:
    raw = as_mapping(value, "settlements")
    entries = []
    for item in as_list(raw.get("settlements"), "settlements.settlements"):
        entry = as_mapping(item, "settlement")
        scores = entry.get("scores")
        entries.append(
            Settlement(
                as_int(entry.get("eventId", entry.get("id")), "settlement.eventId"),
                as_str(entry.get("status"), "settlement.status"),
                _bool(entry.get("final", False), "settlement.final"),
                None if scores is None else parse_scores(scores),
            )
        )
    missing = tuple(as_int(i, "notFound") for i in as_list(raw.get("notFound", []), "notFound"))
    return Settlements(tuple(entries), missing)


def parse_grades(value: Any) -> list[Grade]:
    raw = as_mapping(value, "grades")
    grades = []
    for item in as_list(raw.get("grades"), "grades.grades"):
        entry = as_mapping(item, "grade")
        score = entry.get("score")
        event_id = entry.get("eventId")
        grades.append(
            Grade(
                as_str(entry.get("result"), "grade.result"),
                as_str(entry.get("reason") or "", "grade.reason"),
                _bool(entry.get("final", False), "grade.final"),
                None if event_id is None else as_int(event_id, "grade.eventId"),
                entry.get("ref"),
                None if score is None else parse_scores(score),
            )
        )
    return grades


__all__ = [
    "Grade",
    "MarketInfo",
    "Selection",
    "Settlement",
    "Settlements",
    "parse_grades",
    "parse_market_info",
    "parse_settlements",
]

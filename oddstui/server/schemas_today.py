"""JSON schemas of the routes the public interface gained after the seed (PUBLIC-V3-DELTA.md):
markets, settlements and grading, closing lines. Shapes no source shows are our choice
(docs/public-interface.md, "Wire")."""

from __future__ import annotations

from typing import Any

from oddstui.server.schemas import INT, NAME_SLUG, PRICE, TIME, B, N, S, _obj, _ref

VERDICTS = ["won", "lost", "void", "half_won", "half_lost", "pending", "ungradeable"]
STATUSES = ["pending", "live", "awaiting_result", "settled", "cancelled"]
_NULLABLE_SCORES = {"oneOf": [_ref("Scores"), {"type": "null"}]}

TODAY_SCHEMAS: dict[str, Any] = {
    "Market": _obj(
        {"name": S, "shape": S, "period": S, "prematch": B, "live": B},
        ["name", "shape", "period", "prematch", "live"],
    ),
    "Markets": {"type": "array", "items": _ref("Market")},
    "Settlement": _obj(
        {
            "eventId": INT,
            "status": {"type": "string", "enum": STATUSES},
            "final": B,
            "scores": _NULLABLE_SCORES,
        },
        ["eventId", "status", "final", "scores"],
    ),
    "Settlements": _obj(
        {
            "settlements": {"type": "array", "items": _ref("Settlement")},
            "notFound": {"type": "array", "items": INT},
        },
        ["settlements", "notFound"],
    ),
    "Selection": _obj(
        {"eventId": INT, "market": S, "side": S, "hdp": N, "label": S, "ref": {}},
        ["eventId", "market", "side"],
    ),
    "GradeRequest": _obj(
        {"selections": {"type": "array", "items": _ref("Selection"), "maxItems": 50}},
        ["selections"],
    ),
    "Grade": _obj(
        {
            "ref": {},
            "eventId": INT,
            "market": S,
            "side": S,
            "hdp": {"type": ["number", "null"]},
            "label": S,
            "result": {"type": "string", "enum": VERDICTS},
            "reason": S,
            "final": B,
            "score": _NULLABLE_SCORES,
        },
        ["eventId", "market", "side", "result", "reason", "final", "score"],
    ),
    "Grades": _obj({"grades": {"type": "array", "items": _ref("Grade")}}, ["grades"]),
    "ClosingLine": _obj(
        {
            "id": INT,
            "home": S,
            "away": S,
            "date": TIME,
            "status": S,
            "sport": NAME_SLUG,
            "league": NAME_SLUG,
            "scores": _ref("Scores"),
            "urls": {"type": "object"},
            "bookmakers": {
                "type": "object",
                "additionalProperties": {
                    "type": "array",
                    "items": _obj(
                        {
                            "name": S,
                            "updatedAt": TIME,
                            "odds": {
                                "type": "array",
                                "items": {"type": "object", "additionalProperties": PRICE},
                            },
                        }
                    ),
                },
            },
        },
        ["id", "home", "away", "date", "status", "sport", "league", "scores", "bookmakers"],
    ),
}

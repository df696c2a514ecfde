"""JSON schemas of the response bodies, for the OpenAPI document."""

from __future__ import annotations

from typing import Any


def _obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": props, **extra}
    if required:
        schema["required"] = required
    return schema


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _array(name: str) -> dict[str, Any]:
    return {"type": "array", "items": _ref(name)}


S, INT, N, B = {"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"}
TIME = {"type": "string", "format": "date-time"}
PRICE = {"type": "string", "description": "decimal odds at the bookmaker's precision"}
NAME_SLUG = _obj({"name": S, "slug": S}, ["name", "slug"])
PAIR = _obj({"home": INT, "away": INT}, ["home", "away"])

SCHEMAS: dict[str, Any] = {
    "Error": _obj({"error": S, "invalidBookmakers": {"type": "array", "items": S}}, ["error"]),
    "Sport": NAME_SLUG,
    "Sports": _array("Sport"),
    "Bookmaker": _obj({"name": S, "active": B}, ["name", "active"]),
    "Bookmakers": _array("Bookmaker"),
    "League": _obj({"name": S, "slug": S, "eventsCount": INT}, ["name", "slug", "eventsCount"]),
    "Leagues": _array("League"),
    "Participant": _obj({"id": INT, "name": S, "sport": S}, ["id", "name", "sport"]),
    "Participants": _array("Participant"),
    "Scores": _obj(
        {
            "home": INT,
            "away": INT,
            "periods": {
                "type": "object",
                "additionalProperties": PAIR,
                "description": "p1..pN, ft, ot, ap, currentgame, map1..",
            },
            "redCards": {
                **PAIR,
                "description": "red cards shown (ours: football, once the match has begun)",
            },
        },
        ["home", "away", "periods"],
    ),
    "Clock": _obj(
        {
            "minute": INT,
            "playedSeconds": INT,
            "period": INT,
            "running": B,
            "statusDetail": S,
            "injuryTime": INT,
            "serve": {"type": "string", "enum": ["home", "away"]},
        },
        ["minute", "playedSeconds", "period", "running", "statusDetail", "injuryTime"],
    ),
    "Event": _obj(
        {
            "id": INT,
            "home": S,
            "away": S,
            "homeId": INT,
            "awayId": INT,
            "date": TIME,
            "status": {"type": "string", "enum": ["pending", "live", "settled", "cancelled"]},
            "bookmakerCount": INT,
            "league": NAME_SLUG,
            "sport": NAME_SLUG,
            "scores": _ref("Scores"),
            "clock": _ref("Clock"),
        },
        [
            "id",
            "home",
            "away",
            "homeId",
            "awayId",
            "date",
            "status",
            "bookmakerCount",
            "league",
            "sport",
            "scores",
        ],
    ),
    "Events": _array("Event"),
    "MarketEntry": _obj(
        {
            "hdp": N,
            "label": S,
            "max": N,
            "home": PRICE,
            "draw": PRICE,
            "away": PRICE,
            "over": PRICE,
            "under": PRICE,
            "yes": PRICE,
            "no": PRICE,
        },
        additionalProperties=PRICE,
    ),
    "Market": _obj(
        {"name": S, "updatedAt": TIME, "odds": {"type": "array", "items": _ref("MarketEntry")}},
        ["name", "updatedAt", "odds"],
    ),
    "OddsRecord": _obj(
        {
            "id": INT,
            "home": S,
            "away": S,
            "homeId": INT,
            "awayId": INT,
            "date": TIME,
            "status": S,
            "league": NAME_SLUG,
            "sport": NAME_SLUG,
            "scores": _ref("Scores"),
            "bookmakers": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": _ref("Market")},
            },
            "bookmakerIds": {"type": "object", "additionalProperties": S},
            "urls": {"type": "object", "additionalProperties": S},
        },
        [
            "id",
            "home",
            "away",
            "homeId",
            "awayId",
            "date",
            "status",
            "league",
            "sport",
            "scores",
            "bookmakers",
            "bookmakerIds",
            "urls",
        ],
    ),
    "Tick": _obj(
        {
            "timestamp": {"type": "integer", "description": "Unix milliseconds"},
            "hdp": N,
            "label": S,
            "home": N,
            "draw": N,
            "away": N,
            "over": N,
            "under": N,
            "yes": N,
            "no": N,
        },
        ["timestamp"],
    ),
    "Movements": _obj(
        {
            "eventid": S,
            "bookmaker": S,
            "market": S,
            "opening": _ref("Tick"),
            "movements": {"type": "array", "items": _ref("Tick")},
        },
        ["eventid", "bookmaker", "opening", "movements"],
    ),
    "SelectedBookmakers": _obj(
        {"bookmakers": {"type": "array", "items": S}, "count": INT}, ["bookmakers", "count"]
    ),
    "EventDetails": _obj({"home": S, "away": S, "date": S, "sport": S, "league": S}),
    "ValueBet": _obj(
        {
            "id": S,
            "eventId": INT,
            "event": _ref("EventDetails"),
            "bookmaker": S,
            "betSide": S,
            "expectedValue": {"type": "number", "description": "percent"},
            "expectedValueUpdatedAt": TIME,
            "bookmakerOdds": _obj(
                {
                    "home": S,
                    "draw": S,
                    "away": S,
                    "hdp": S,
                    "href": S,
                    "homeDirectLink": S,
                    "drawDirectLink": S,
                    "awayDirectLink": S,
                },
                additionalProperties=S,
            ),
            "market": _obj(
                {"name": S, "hdp": N, "home": S, "draw": S, "away": S, "max": N},
                additionalProperties=True,
            ),
        },
        [
            "id",
            "eventId",
            "bookmaker",
            "betSide",
            "expectedValue",
            "expectedValueUpdatedAt",
            "bookmakerOdds",
            "market",
        ],
    ),
    "ArbitrageBet": _obj(
        {
            "id": S,
            "eventId": INT,
            "event": _ref("EventDetails"),
            "impliedProbability": {"type": "number", "description": "S, the sum of 1/price"},
            "profitMargin": {"type": "number", "description": "(1/S - 1) * 100"},
            "totalStake": N,
            "updatedAt": TIME,
            "market": _obj({"hdp": N, "name": S, "label": S}),
            "legs": {
                "type": "array",
                "items": _obj(
                    {
                        "bookmaker": S,
                        "bookmakerFixtureId": S,
                        "directLink": S,
                        "href": S,
                        "label": S,
                        "odds": S,
                        "side": S,
                    }
                ),
            },
            "optimalStakes": {
                "type": "array",
                "items": _obj({"bookmaker": S, "side": S, "stake": N, "potentialReturn": N}),
            },
        },
        [
            "id",
            "eventId",
            "impliedProbability",
            "profitMargin",
            "totalStake",
            "updatedAt",
            "market",
            "legs",
            "optimalStakes",
        ],
    ),
    "DroppingOdds": _obj(
        {
            "eventId": INT,
            "event": _obj(
                {"home": S, "away": S, "date": S, "sport": NAME_SLUG, "league": NAME_SLUG}
            ),
            "market": _obj({"hdp": N, "label": S, "name": S}),
            "betSide": {"type": "string", "enum": ["home", "away", "over", "under"]},
            "odds": _obj(
                {
                    "opening": N,
                    "current": N,
                    "drop": _obj(
                        {
                            "sinceOpening": N,
                            "12h": {"type": ["number", "null"]},
                            "24h": {"type": ["number", "null"]},
                            "48h": {"type": ["number", "null"]},
                        }
                    ),
                }
            ),
            "lastMovedAt": {"type": ["integer", "null"]},
            "updatedAt": INT,
        },
        ["eventId", "market", "betSide", "odds", "lastMovedAt", "updatedAt"],
    ),
}

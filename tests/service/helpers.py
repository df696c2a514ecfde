"""Small helpers shared by the service's REST tests."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import Any

import httpx

from tests.service.conftest import Service

SEED_SPORTS = (
    "football basketball tennis baseball american-football ice-hockey esports darts "
    "mixed-martial-arts boxing handball volleyball snooker table-tennis rugby cricket water-polo "
    "futsal beach-volleyball aussie-rules floorball squash beach-soccer lacrosse curling padel "
    "bandy gaelic-football beach-handball athletics badminton cross-country golf cycling"
).split()


def get(
    http: httpx.Client, service: Service, path: str, key: str | None = None, **params: Any
) -> httpx.Response:
    """GET with the paid key unless another key is given (pass key="" for none)."""
    key = service.key if key is None else key
    if key:
        params["apiKey"] = key
    return http.get(path, params=params)


def ok(response: httpx.Response) -> Any:
    assert response.status_code == 200, (response.status_code, response.text[:500])
    return response.json()


def error(response: httpx.Response, status: int, *needles: str) -> str:
    """Assert an error status with a `{"error": ...}` body mentioning every needle."""
    assert response.status_code == status, (response.status_code, response.text[:500])
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert isinstance(body.get("error"), str) and body["error"]
    assert "Traceback" not in body["error"]
    # may be empty: a caller may check the status and the error's form alone
    for needle in needles:
        assert needle in body["error"], body["error"]
    return str(body["error"])


def parse_time(text: str) -> datetime:
    assert text.endswith("Z"), text
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def rfc3339(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def fold(text: str) -> str:
    """Accents removed and case folded, the way the service matches search text."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def check_scores(scores: dict[str, Any], sport: str | None = None, status: str = "") -> None:
    """The seed's Scores, plus our `redCards` {home, away} in football once a match has begun
    (`sport` and `status` given: checked to be there exactly then)."""
    assert set(scores) in ({"home", "away", "periods"}, {"home", "away", "periods", "redCards"})
    cards = scores.get("redCards")
    if cards is not None:
        assert set(cards) == {"home", "away"}
        assert all(type(n) is int and n >= 0 for n in cards.values())
    if sport is not None:
        begun = status in ("live", "settled")
        assert (cards is not None) == (sport == "football" and begun), (sport, status, scores)

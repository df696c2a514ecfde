"""Live matches a test can rely on for a while: quoted by several books, far from their end."""

from __future__ import annotations

from typing import Any

import httpx

from tests.tui.conftest import DEMO_KEY, Service


def quoted_live(service: Service) -> int:
    """Of the live matches whose ML two books or more quote now (in play, most books stop
    quoting), the one least far on."""

    def get(path: str, **params: object) -> object:
        response = httpx.get(service.base_url + path, params={"apiKey": DEMO_KEY, **params})
        response.raise_for_status()
        return response.json()

    live = get("/events/live")
    books = ",".join(get("/bookmakers/selected")["bookmakers"])  # type: ignore[index]

    def played(event: dict[str, Any]) -> float:
        """How far on a match is; one without a clock (tennis, say) last."""
        seconds = (event.get("clock") or {}).get("playedSeconds")
        return float("inf") if seconds is None else float(seconds)

    counted = []
    for event in live[:30]:  # type: ignore[index]
        record = get("/odds", eventId=event["id"], bookmakers=books)
        quoting = [
            name
            for name, markets in (record.get("bookmakers") or {}).items()  # type: ignore[union-attr]
            if any(market["name"] == "ML" and market.get("odds") for market in markets)
        ]
        counted.append((len(quoting), event["id"], event))
    # Among those quoted by two books or more, the least far on (at 60x a real minute is a
    # service hour: one near its end would stop being quoted under the test).
    quoted = [(played(event), event_id) for count, event_id, event in counted if count >= 2]
    assert quoted, "no live match quoted by two books"
    _, event_id = min(quoted)
    return int(event_id)

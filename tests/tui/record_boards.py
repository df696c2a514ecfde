"""Record what the trading boards ask of `oddstui serve --seed 42` into data/boards.json.

Run from the repository root: `python -m tests.tui.record_boards`, then
`pytest tests/tui/boards/test_boards_snapshots.py --snapshot-update`. The catalog the app loads at
start (sports, leagues, live events) is recorded at the same moment as the boards, so the file
stands alone.
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from oddstui.api.validate import MAX_BOOKMAKERS
from oddstui.tui.boards.dropping import PAGE_SIZE
from oddstui.tui.browse.search import MIN_QUERY
from tests.tui.boards_recorded import DATA, SEARCH, request_key
from tests.tui.conftest import start_service

SEED = "42"


def main() -> None:
    assert len(SEARCH) >= MIN_QUERY
    # A faster world, so stale quotes (value, arbitrage) and drops exist within seconds.
    service = start_service("--seed", SEED, "--speed", "30")
    try:
        time.sleep(15.0)
        answers: dict[str, Any] = {}
        with httpx.Client(base_url=service.base_url + "/", timeout=30) as http:

            def get(path: str, **params: Any) -> Any:
                response = http.get(path.lstrip("/"), params={**params, "apiKey": "demo"})
                response.raise_for_status()
                body = response.json()
                answers[request_key(str(response.request.url))] = body
                return body

            recorded_at = time.time()
            for sport in get("/sports"):
                get("/leagues", sport=sport["slug"])
            live = get("/events/live")
            books = get("/bookmakers/selected")["bookmakers"]
            # The alert shots' event: the live football match with the most books, its odds.
            football = [e for e in live if e["sport"]["slug"] == "football"]
            alert_event = max(football, key=lambda e: e.get("bookmakerCount") or 0)
            get("/odds", eventId=alert_event["id"], bookmakers=",".join(books[:MAX_BOOKMAKERS]))
            arbs = get(
                "/arbitrage-bets",
                bookmakers=",".join(books),
                limit=500,
                includeEventDetails="true",
            )
            # The ticket reads its legs' limits from /odds when the feed's book lacks the line.
            for arb in arbs[:20]:
                legs = sorted({leg["bookmaker"] for leg in arb["legs"]})
                get("/odds", eventId=arb["eventId"], bookmakers=",".join(legs))
            get("/value-bets", bookmaker=books[0], includeEventDetails="true")
            get(
                "/dropping-odds",
                timeWindow="opening",
                limit=PAGE_SIZE,
                page=1,
                includeEventDetails="true",
            )
            get("/events/search", query=SEARCH)
        state = {
            "seed": SEED,
            "recorded_at": recorded_at,
            "alert_event": alert_event["id"],
            "answers": answers,
        }
        DATA.write_text(json.dumps(state, indent=1, ensure_ascii=False))
        print(f"recorded {len(answers)} answers into {DATA}")
    finally:
        service.stop()


if __name__ == "__main__":
    main()

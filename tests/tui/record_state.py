"""Record the REST answers the screens need from `oddstui serve --seed 42` into data/.

Run from the repository root: `python -m tests.tui.record_state`.
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from tests.tui.conftest import start_service
from tests.tui.recorded import DATA, request_key

SEED = "42"


def main() -> None:
    service = start_service("--seed", SEED, "--speed", "1")
    try:
        time.sleep(1.0)
        answers: dict[str, Any] = {}
        with httpx.Client(base_url=service.base_url + "/", timeout=30) as http:

            def get(path: str, **params: Any) -> Any:
                response = http.get(path.lstrip("/"), params={**params, "apiKey": "demo"})
                response.raise_for_status()
                body = response.json()
                answers[request_key(str(response.request.url))] = body
                return body

            recorded_at = time.time()
            sports = get("/sports")
            for sport in sports:
                get("/leagues", sport=sport["slug"])
            live = get("/events/live")
            football = get("/leagues", sport="football")
            league = max(football, key=lambda item: item.get("eventsCount") or 0)["slug"]
            events = get("/events", sport="football", league=league, limit=500)
            for event in [*live[:3], *events[:3]]:
                get(f"/events/{event['id']}")
        DATA.write_text(
            json.dumps(
                {"seed": SEED, "recorded_at": recorded_at, "league": league, "answers": answers},
                indent=1,
                ensure_ascii=False,
            )
        )
        print(f"recorded {len(answers)} answers into {DATA}")
    finally:
        service.stop()


if __name__ == "__main__":
    main()

"""Record what the Event screen needs from `oddstui serve --seed 42` into data/event.json.

The catalog and live answers the app loads at start, one live football event, two odds records of
it a few seconds apart (so the snapshot has moves to flash) and its crests as base64 PNG.
Run from the repository root: `python -m tests.tui.record_event_state`.
"""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import httpx

from tests.tui.conftest import start_service
from tests.tui.event_recorded import DATA
from tests.tui.recorded import request_key

SEED = "42"
MOVE_WAIT = 4.0


def main() -> None:
    service = start_service("--seed", SEED, "--speed", "1", "--updates-per-second", "800")
    try:
        time.sleep(1.0)
        answers: dict[str, Any] = {}
        with httpx.Client(base_url=service.base_url + "/", timeout=30) as http:

            def get(path: str, keep: bool = True, **params: Any) -> Any:
                response = http.get(path.lstrip("/"), params={**params, "apiKey": "demo"})
                response.raise_for_status()
                if keep:
                    answers[request_key(str(response.request.url))] = response.json()
                return response.json()

            def logo(participant: int) -> str | None:
                response = http.get(f"participants/{participant}/logo", params={"apiKey": "demo"})
                return base64.b64encode(response.content).decode() if response.is_success else None

            recorded_at = time.time()
            for sport in get("/sports"):
                get("/leagues", sport=sport["slug"])
            live = get("/events/live")
            football = sorted(
                (e for e in live if e["sport"]["slug"] == "football"), key=lambda e: e["id"]
            )
            # An event with one crest and one team without, when there is one: both cases shown.
            with_logos = [(e, logo(e["homeId"]), logo(e["awayId"])) for e in football[:12]]
            event, home_logo, away_logo = next(
                (item for item in with_logos if bool(item[1]) != bool(item[2])), with_logos[0]
            )
            get(f"/events/{event['id']}")
            books = ",".join(get("/bookmakers/selected", keep=False)["bookmakers"])
            before = get("/odds", keep=False, eventId=event["id"], bookmakers=books)
            time.sleep(MOVE_WAIT)
            after = get("/odds", keep=False, eventId=event["id"], bookmakers=books)
        DATA.write_text(
            json.dumps(
                {
                    "seed": SEED,
                    "recorded_at": recorded_at,
                    "event": event["id"],
                    "answers": answers,
                    "odds": [before, after],
                    "logos": {str(event["homeId"]): home_logo, str(event["awayId"]): away_logo},
                },
                indent=1,
                ensure_ascii=False,
            )
        )
        print(f"recorded event {event['id']} into {DATA}")
    finally:
        service.stop()


if __name__ == "__main__":
    main()

"""The recorded answers behind the snapshots (tests/tui/data/*.json) hold every field the service
sends now: each recorded request is asked again of a fresh `oddstui serve --seed 42`, and the keys
of each kind of object in the fresh answer (an arbitrage, its legs, a value bet, an event...) must
all be in the recording. A field the service gained since the recording fails here; re-record with
the recorder the file names (tests/tui/record_*.py)."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.tui.conftest import DEMO_KEY, Service, start_service

DATA = Path(__file__).parent / "data"
RECORDINGS = ("recorded", "boards", "event", "settings")
MARK = "__recorded__"
# Keys that name data, not fields: the sides of a price map (and their links), periods of a
# score; and fields only some objects carry (a line's handicap, limit or player name, the server
# in a clock of a sport with serves).
SIDES = {"home", "draw", "away", "over", "under", "yes", "no", "odd", "even"}
DATA_KEYED = re.compile(r"\.periods$")
OPTIONAL = {"hdp", "max", "label", "serve"}


def kind_of(request: str) -> str:
    """`/events/61008798?x=1` is the kind `/events/{id}`."""
    return re.sub(r"/\d+", "/{id}", request.split("?")[0])


def is_field(key: str) -> bool:
    side = key.removesuffix("DirectLink").removesuffix("Link")
    return side not in SIDES and not side.startswith("lay") and key not in OPTIONAL


def fields(value: Any, path: str, out: dict[str, set[str]]) -> None:
    """The field names of every object in `value`, by its place (`/arbitrage-bets[].legs[]`)."""
    if isinstance(value, dict):
        if not DATA_KEYED.search(path):
            out[path] |= {key for key in value if is_field(key)}
        for key, item in value.items():
            fields(item, f"{path}.{key}", out)
    elif isinstance(value, list):
        for item in value:
            fields(item, path + "[]", out)


def recorded_json(answer: Any) -> Any:
    if isinstance(answer, dict) and answer.get(MARK):
        return answer.get("json")
    return answer


@pytest.fixture(scope="module")
def fresh_service() -> Iterator[Service]:
    # Speed 30, as the boards were recorded: stale quotes make arbitrage and value at once.
    service = start_service("--seed", "42", "--speed", "30")
    yield service
    service.stop()


@pytest.mark.parametrize("name", RECORDINGS)
def test_a_recording_has_every_field_the_service_sends_now(
    name: str, fresh_service: Service
) -> None:
    answers = json.loads((DATA / f"{name}.json").read_text())["answers"]
    recorded: dict[str, set[str]] = defaultdict(set)
    fresh: dict[str, set[str]] = defaultdict(set)
    with httpx.Client(base_url=fresh_service.base_url, timeout=30) as http:
        for request, answer in answers.items():
            body = recorded_json(answer)
            if body is None:  # an image (a crest) or an error answer
                continue
            kind = kind_of(request)
            fields(body, kind, recorded)
            joiner = "&" if "?" in request else "?"
            response = http.get(f"{request}{joiner}apiKey={DEMO_KEY}")
            if response.status_code == 200:  # an event of the recording may be over now
                fields(response.json(), kind, fresh)
    compared = [place for place in fresh if recorded.get(place)]
    assert len(compared) >= 5, f"{name}: only {compared} could be compared"
    missing = {place: fresh[place] - recorded[place] for place in compared}
    assert {place: keys for place, keys in missing.items() if keys} == {}
